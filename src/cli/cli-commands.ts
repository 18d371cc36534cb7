import { INestApplicationContext } from '@nestjs/common';
import { ApiKeysService } from '../auth/api-keys.service';
import { Plan, PLANS } from '../auth/merchant.entity';
import { MerchantsService } from '../auth/merchants.service';
import { API_MODES, ApiMode } from '../auth/tenant';
import { BillingService } from '../billing/billing.service';

export type CliOptions = Record<string, string | undefined>;

export class CliUsageError extends Error {}

function required(options: CliOptions, name: string): string {
  const value = options[name];
  if (value === undefined || value === '') throw new CliUsageError(`--${name} is required`);
  return value;
}

function oneOf<T extends string>(options: CliOptions, name: string, allowed: readonly T[]): T {
  const value = required(options, name);
  if (!(allowed as readonly string[]).includes(value)) throw new CliUsageError(`--${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

export interface CliCommand {
  summary: string;
  usage: string;
  run(context: INestApplicationContext, options: CliOptions): Promise<unknown>;
}

/** Every CLI command (DESIGN §3); each calls the same service as the admin API. */
export const CLI_COMMANDS: Record<string, CliCommand> = {
  'merchants:create': {
    summary: 'Create a merchant',
    usage: '--name <name> [--plan free|growth|pro|enterprise]',
    run: (context, options) =>
      context.get(MerchantsService).create(required(options, 'name'), (options.plan ? oneOf(options, 'plan', PLANS) : 'free') as Plan),
  },
  'merchants:set-plan': {
    summary: "Change a merchant's plan",
    usage: '--merchant <mer_…> --plan free|growth|pro|enterprise',
    run: (context, options) =>
      context.get(MerchantsService).update(required(options, 'merchant'), { plan: oneOf(options, 'plan', PLANS) }),
  },
  'api-keys:create': {
    summary: 'Create an API key (the secret is printed once)',
    usage: "--merchant <mer_…> --mode test|live [--scopes 'entitlements:read,files:read' | '*'] [--name <label>]",
    run: (context, options) =>
      context.get(ApiKeysService).create(required(options, 'merchant'), {
        mode: oneOf(options, 'mode', API_MODES) as ApiMode,
        scopes: (options.scopes ?? '*').split(',').map((scope) => scope.trim()).filter(Boolean),
        name: options.name ?? null,
      }),
  },
  'api-keys:list': {
    summary: "List a merchant's API keys (no secrets)",
    usage: '--merchant <mer_…>',
    run: (context, options) => context.get(ApiKeysService).list(required(options, 'merchant')),
  },
  usage: {
    summary: "A merchant's plan limits and current usage, in bytes",
    usage: '--merchant <mer_…>',
    run: (context, options) => context.get(BillingService).usage(required(options, 'merchant')),
  },
  'api-keys:revoke': {
    summary: 'Revoke an API key',
    usage: '--key <key_…>',
    run: (context, options) => context.get(ApiKeysService).revoke(required(options, 'key')),
  },
};
