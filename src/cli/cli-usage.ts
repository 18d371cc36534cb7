import { accessSync, constants, statSync } from 'node:fs';
import { PLANS } from '../auth/plan';
import { ROLES } from '../auth/roles';
import { API_MODES } from '../database/tenant';

/**
 * What each CLI command is called and takes, and the checks of its command line, without loading
 * anything it runs: `help`, unknown commands and every usage error (an unknown or misplaced flag, a
 * missing option, a value outside its choices, a file that can't be read) answer before Nest,
 * TypeORM or the database are even required. Only node:fs and two constant lists load here.
 */
export type CliOptions = Record<string, string | undefined>;

/** A command's output printed as it is (the CSV export), instead of as JSON. */
export class CliText {
  constructor(readonly text: string) {}
}

/** A mistake in the command line (exit code 2). */
export class CliUsageError extends Error {}

export interface CliOption {
  required?: boolean;
  /** The values it may take. */
  choices?: readonly string[];
  /** It names a file the command reads: it must be a readable file. */
  file?: boolean;
}

export interface CliCommandUsage {
  summary: string;
  usage: string;
  /** Drives the services (and so opens the database); false for commands on files and configuration alone. */
  opensDatabase: boolean;
  /** Its options (all `--name value`); any other flag is a usage error. */
  options: Record<string, CliOption>;
}

const MERCHANT: CliOption = { required: true };
const MODE: CliOption = { required: true, choices: API_MODES };

export const CLI_USAGE: Record<string, CliCommandUsage> = {
  'users:create': {
    summary: 'Create a dashboard user; prints a one-time setup link (24 h)',
    usage: '--merchant <mer_…> --email <address> [--role owner|admin|developer|support|viewer] [--test-only true|false]',
    opensDatabase: true,
    options: { merchant: MERCHANT, email: { required: true }, role: { choices: ROLES }, 'test-only': { choices: ['true', 'false'] } },
  },
  'merchants:create': {
    summary: 'Create a merchant',
    usage: '--name <name> [--plan free|growth|pro|enterprise]',
    opensDatabase: true,
    options: { name: { required: true }, plan: { choices: PLANS } },
  },
  'merchants:set-plan': {
    summary: "Change a merchant's plan",
    usage: '--merchant <mer_…> --plan free|growth|pro|enterprise',
    opensDatabase: true,
    options: { merchant: MERCHANT, plan: { required: true, choices: PLANS } },
  },
  'merchants:set-terms': {
    summary: "Set a merchant's own limits, overage price or Stripe customer; 'plan' restores the plan's (none: the customer)",
    usage:
      '--merchant <mer_…> [--max-file-size-bytes <n>|plan] [--storage-bytes <n>|plan] [--bandwidth-bytes <n>|plan] [--overage-price-per-gib <minor units>|plan] [--stripe-customer <cus_…>|none]',
    opensDatabase: true,
    options: {
      merchant: MERCHANT,
      'max-file-size-bytes': {},
      'storage-bytes': {},
      'bandwidth-bytes': {},
      'overage-price-per-gib': {},
      'stripe-customer': {},
    },
  },
  'statements:close': {
    summary: 'Write the usage statements of an ended month (idempotent; the service does it within the hour by itself)',
    usage: '--month <YYYY-MM>',
    opensDatabase: true,
    options: { month: { required: true } },
  },
  'statements:export': {
    summary: "Every merchant's live statements of a month as CSV, to --output or stdout (what GET /admin/v1/statements answers as text/csv)",
    usage: '--month <YYYY-MM> [--output <file.csv>]',
    opensDatabase: true,
    options: { month: { required: true }, output: {} },
  },
  'api-keys:create': {
    summary: 'Create an API key (the secret is printed once)',
    usage: "--merchant <mer_…> --mode test|live [--scopes 'entitlements:read,files:read' | '*'] [--name <label>]",
    opensDatabase: true,
    options: { merchant: MERCHANT, mode: MODE, scopes: {}, name: {} },
  },
  'api-keys:list': { summary: "List a merchant's API keys (no secrets)", usage: '--merchant <mer_…>', opensDatabase: true, options: { merchant: MERCHANT } },
  usage: { summary: "A merchant's plan limits and current usage, in bytes", usage: '--merchant <mer_…>', opensDatabase: true, options: { merchant: MERCHANT } },
  import: {
    summary: 'Import entitlements from a CSV (header row) or JSON ({"rows": [...]}) file; a progress bar on a terminal, the report as JSON',
    usage: '--merchant <mer_…> --mode test|live --file <rows.csv | rows.json>',
    opensDatabase: true,
    options: { merchant: MERCHANT, mode: MODE, file: { required: true, file: true } },
  },
  'api-keys:revoke': { summary: 'Revoke an API key', usage: '--key <key_…>', opensDatabase: true, options: { key: { required: true } } },
  'signing-keys:rotate': {
    summary: 'New entitlement-token signing key in DATA_DIR; the old one stays in the JWKS one token lifetime',
    usage: '(no options; a running server picks the new key up within 5 s)',
    opensDatabase: false,
    options: {},
  },
};

function readableFile(name: string, path: string): void {
  try {
    if (!statSync(path).isFile()) throw new CliUsageError(`--${name}: '${path}' is not a file`);
    accessSync(path, constants.R_OK);
  } catch (error: unknown) {
    if (error instanceof CliUsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliUsageError(`--${name}: cannot read '${path}' (${code === 'ENOENT' ? 'no such file' : (code ?? String(error))})`);
  }
}

/** Checks parsed options against the command's table: required, choices, readable files. Throws CliUsageError. */
export function checkOptions(command: CliCommandUsage, options: CliOptions): void {
  for (const [name, option] of Object.entries(command.options)) {
    const value = options[name];
    if (value === undefined || value === '') {
      if (option.required) throw new CliUsageError(`--${name} is required`);
      continue;
    }
    if (option.choices && !option.choices.includes(value)) throw new CliUsageError(`--${name} must be one of ${option.choices.join(', ')}`);
    if (option.file) readableFile(name, value);
  }
}
