import { INestApplicationContext, Type } from '@nestjs/common';
import { ApiKeysService } from '../auth/api-keys.service';
import type { Plan } from '../auth/plan';
import type { Role } from '../auth/roles';
import { MerchantsService } from '../auth/merchants.service';
import type { ApiMode } from '../database/tenant';
import { BillingService } from '../billing/billing.service';
import { AppConfig } from '../config/app-config';
import { DashboardUsersService } from '../dashboard/dashboard-users.service';
import { EntitlementSigningKeys } from '../entitlements/tokens/entitlement-signing-keys';

import type { CliOptions } from './cli-usage';

/**
 * An option's value. main.ts has already checked the command line against CLI_USAGE (required
 * options present, values within their choices, files readable), so what is read here is valid.
 */
function value(options: CliOptions, name: string): string {
  const given = options[name];
  if (given === undefined) throw new Error(`--${name} is missing: the command line was not checked against CLI_USAGE`);
  return given;
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
    run: (context, options) =>
      context.get(DashboardUsersService).create(value(options, 'merchant'), value(options, 'email'), {
        role: options.role as Role | undefined,
        testOnly: options['test-only'] === undefined ? undefined : options['test-only'] === 'true',
      }),
  },
  'merchants:create': {
    run: (context, options) =>
      context.get(MerchantsService).create(value(options, 'name'), (options.plan ?? 'free') as Plan),
  },
  'merchants:set-plan': {
    run: (context, options) =>
      context.get(MerchantsService).update(value(options, 'merchant'), { plan: value(options, 'plan') as Plan }),
  },
  'api-keys:create': {
    run: (context, options) =>
      context.get(ApiKeysService).create(value(options, 'merchant'), {
        mode: value(options, 'mode') as ApiMode,
        scopes: (options.scopes ?? '*').split(',').map((scope) => scope.trim()).filter(Boolean),
        name: options.name ?? null,
      }),
  },
  'api-keys:list': {
    run: (context, options) => context.get(ApiKeysService).list(value(options, 'merchant')),
  },
  usage: {
    run: (context, options) => context.get(BillingService).usage(value(options, 'merchant')),
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
        merchantId: value(options, 'merchant'),
        mode: value(options, 'mode') as ApiMode,
        file: value(options, 'file'),
        progress: process.stderr,
      }),
  },
  'api-keys:revoke': {
    run: (context, options) => context.get(ApiKeysService).revoke(value(options, 'key')),
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
