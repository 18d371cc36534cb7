/**
 * What each CLI command is called and takes, without loading anything it runs: `help`, unknown
 * commands and usage errors answer before Nest, TypeORM or the database are even required.
 */
export type CliOptions = Record<string, string | undefined>;

/** A mistake in the command line (exit code 2). */
export class CliUsageError extends Error {}

export interface CliCommandUsage {
  summary: string;
  usage: string;
  /** Drives the services (and so opens the database); false for commands on files and configuration alone. */
  opensDatabase: boolean;
  /** Checked before anything loads, so a forgotten option costs no database start. */
  requiredOptions: string[];
}

export const CLI_USAGE: Record<string, CliCommandUsage> = {
  'users:create': {
    summary: 'Create a dashboard user; prints a one-time setup link (24 h)',
    usage: '--merchant <mer_…> --email <address>',
    opensDatabase: true, requiredOptions: ['merchant', 'email'],
  },
  'merchants:create': { summary: 'Create a merchant', usage: '--name <name> [--plan free|growth|pro|enterprise]', opensDatabase: true, requiredOptions: ['name'] },
  'merchants:set-plan': { summary: "Change a merchant's plan", usage: '--merchant <mer_…> --plan free|growth|pro|enterprise', opensDatabase: true, requiredOptions: ['merchant', 'plan'] },
  'api-keys:create': {
    summary: 'Create an API key (the secret is printed once)',
    usage: "--merchant <mer_…> --mode test|live [--scopes 'entitlements:read,files:read' | '*'] [--name <label>]",
    opensDatabase: true, requiredOptions: ['merchant', 'mode'],
  },
  'api-keys:list': { summary: "List a merchant's API keys (no secrets)", usage: '--merchant <mer_…>', opensDatabase: true, requiredOptions: ['merchant'] },
  usage: { summary: "A merchant's plan limits and current usage, in bytes", usage: '--merchant <mer_…>', opensDatabase: true, requiredOptions: ['merchant'] },
  import: {
    summary: 'Import entitlements from a CSV (header row) or JSON ({"rows": [...]}) file; a progress bar on a terminal, the report as JSON',
    usage: '--merchant <mer_…> --mode test|live --file <rows.csv | rows.json>',
    opensDatabase: true, requiredOptions: ['merchant', 'mode', 'file'],
  },
  'api-keys:revoke': { summary: 'Revoke an API key', usage: '--key <key_…>', opensDatabase: true, requiredOptions: ['key'] },
  'signing-keys:rotate': {
    summary: 'New entitlement-token signing key in DATA_DIR; the old one stays in the JWKS one token lifetime',
    usage: '(no options; a running server picks the new key up within 5 s)',
    opensDatabase: false, requiredOptions: [],
  },
};
