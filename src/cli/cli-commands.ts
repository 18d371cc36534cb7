import { INestApplicationContext, Type } from '@nestjs/common';
import { ApiKeysService } from '../auth/api-keys.service';
import { Plan, PLANS } from '../auth/merchant.entity';
import { MerchantsService } from '../auth/merchants.service';
import { API_MODES, ApiMode } from '../database/tenant';
import { BillingService } from '../billing/billing.service';
import { AppConfig } from '../config/app-config';
import { DashboardUsersService } from '../dashboard/dashboard-users.service';
import { EntitlementSigningKeys } from '../entitlements/tokens/entitlement-signing-keys';

import { CliOptions, CliUsageError } from './cli-usage';

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

/** A command that drives the services (and so opens the database); its usage is in cli-usage.ts. */
export interface CliCommand {
  run(context: INestApplicationContext, options: CliOptions): Promise<unknown>;
  /** Modules beyond CliModule's that this command needs, loaded only when it runs (startup stays short for the others). */
  modules?: () => Promise<Type[]>;
}

/** A command on files and configuration alone: it runs while the server holds the embedded database. */
export interface ConfigurationCliCommand {
  run(config: AppConfig, options: CliOptions): Promise<unknown>;
}

/** Every CLI command (DESIGN §3); each calls the same service as the admin API. */
export const CLI_COMMANDS: Record<string, CliCommand> = {
  'users:create': {
    run: (context, options) => context.get(DashboardUsersService).create(required(options, 'merchant'), required(options, 'email')),
  },
  'merchants:create': {
    run: (context, options) =>
      context.get(MerchantsService).create(required(options, 'name'), (options.plan ? oneOf(options, 'plan', PLANS) : 'free') as Plan),
  },
  'merchants:set-plan': {
    run: (context, options) =>
      context.get(MerchantsService).update(required(options, 'merchant'), { plan: oneOf(options, 'plan', PLANS) }),
  },
  'api-keys:create': {
    run: (context, options) =>
      context.get(ApiKeysService).create(required(options, 'merchant'), {
        mode: oneOf(options, 'mode', API_MODES) as ApiMode,
        scopes: (options.scopes ?? '*').split(',').map((scope) => scope.trim()).filter(Boolean),
        name: options.name ?? null,
      }),
  },
  'api-keys:list': {
    run: (context, options) => context.get(ApiKeysService).list(required(options, 'merchant')),
  },
  usage: {
    run: (context, options) => context.get(BillingService).usage(required(options, 'merchant')),
  },
  import: {
    // The imports worker runs in this process; the webhooks module records the events (the outbox).
    modules: async () => [
      (await import('../imports/imports.module')).ImportsModule,
      (await import('../webhooks/webhooks.module')).WebhooksModule,
      // Products (under the import's grants) asks the files module for FileCatalog.
      (await import('../files/file-records.module')).FileRecordsModule,
    ],
    run: async (context, options) =>
      (await import('./import-command')).runImportCommand(context, {
        merchantId: required(options, 'merchant'),
        mode: oneOf(options, 'mode', API_MODES) as ApiMode,
        file: required(options, 'file'),
        progress: process.stderr,
      }),
  },
  'api-keys:revoke': {
    run: (context, options) => context.get(ApiKeysService).revoke(required(options, 'key')),
  },
};

/** Commands without the database (DESIGN §12's key rotation). */
export const CONFIGURATION_COMMANDS: Record<string, ConfigurationCliCommand> = {
  'signing-keys:rotate': {
    run: (config) =>
      EntitlementSigningKeys.rotate({
        configuredKey: config.entitlementSigningKey,
        dataDirectory: config.dataDirectory,
        tokenTtlMilliseconds: config.entitlementTokenTtlMilliseconds,
      }),
  },
};
