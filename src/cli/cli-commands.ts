import { INestApplicationContext, Type } from '@nestjs/common';
import { ApiKeysService } from '../auth/api-keys.service';
import type { Plan } from '../auth/plan';
import type { Role } from '../auth/roles';
import { MerchantsService } from '../auth/merchants.service';
import { systemAudit } from '../auth/request-audit';
import type { ApiMode } from '../database/tenant';
import { writeFile } from 'node:fs/promises';
import { BillingService } from '../billing/billing.service';
import { statementsCsv } from '../billing/usage-statement.mapper';
import { UsageStatementsService } from '../billing/usage-statements.service';
import { AppConfig } from '../config/app-config';
import { DashboardUsersService } from '../dashboard/dashboard-users.service';
import { EntitlementSigningKeys } from '../entitlements/tokens/entitlement-signing-keys';

import { CliText, CliUsageError, type CliOptions } from './cli-usage';

/**
 * An option's value. main.ts has already checked the command line against CLI_USAGE (required
 * options present, values within their choices, files readable), so what is read here is valid.
 */
function value(options: CliOptions, name: string): string {
  const given = options[name];
  if (given === undefined) throw new Error(`--${name} is missing: the command line was not checked against CLI_USAGE`);
  return given;
}

/** A limit or price option: absent (unchanged), 'plan' (null: the plan's again) or a whole number. */
function termOption(options: CliOptions, name: string, minimum: number): number | null | undefined {
  const given = options[name];
  if (given === undefined || given === '') return undefined;
  if (given === 'plan') return null;
  if (!/^\d{1,16}$/.test(given) || Number(given) < minimum || !Number.isSafeInteger(Number(given))) {
    throw new CliUsageError(`--${name} must be a whole number of at least ${minimum}, or 'plan'`);
  }
  return Number(given);
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
      }, systemAudit('cli.users:create')),
  },
  'merchants:create': {
    run: (context, options) =>
      context.get(MerchantsService).create(value(options, 'name'), (options.plan ?? 'free') as Plan, systemAudit('cli.merchants:create')),
  },
  'merchants:set-plan': {
    run: (context, options) =>
      context.get(MerchantsService).update(value(options, 'merchant'), { plan: value(options, 'plan') as Plan }, systemAudit('cli.merchants:set-plan')),
  },
  'merchants:set-terms': {
    run: (context, options) => {
      const stripeCustomer = options['stripe-customer'];
      if (stripeCustomer && stripeCustomer !== 'none' && !/^cus_[A-Za-z0-9]{1,250}$/.test(stripeCustomer)) {
        throw new CliUsageError("--stripe-customer must be a Stripe customer id (cus_…), or 'none'");
      }
      return context.get(MerchantsService).update(value(options, 'merchant'), {
        limits: {
          max_file_size_bytes: termOption(options, 'max-file-size-bytes', 1),
          storage_bytes: termOption(options, 'storage-bytes', 1),
          bandwidth_bytes: termOption(options, 'bandwidth-bytes', 1),
        },
        overage_price_per_gib: termOption(options, 'overage-price-per-gib', 0),
        stripe_customer_id: stripeCustomer === undefined || stripeCustomer === '' ? undefined : stripeCustomer === 'none' ? null : stripeCustomer,
      }, systemAudit('cli.merchants:set-terms'));
    },
  },
  'statements:close': {
    // The statements' events go through the outbox, which the webhooks module writes.
    modules: async () => [(await import('../webhooks/webhooks.module')).WebhooksModule],
    run: (context, options) => context.get(UsageStatementsService).closeMonth(value(options, 'month')),
  },
  'statements:export': {
    run: async (context, options) => {
      const csv = statementsCsv(await context.get(UsageStatementsService).listMonth(value(options, 'month')));
      const output = options.output;
      if (output === undefined || output === '') return new CliText(csv);
      await writeFile(output, csv);
      return { month: value(options, 'month'), file: output, bytes: Buffer.byteLength(csv) };
    },
  },
  'api-keys:create': {
    run: (context, options) =>
      context.get(ApiKeysService).create(value(options, 'merchant'), {
        mode: value(options, 'mode') as ApiMode,
        scopes: (options.scopes ?? '*').split(',').map((scope) => scope.trim()).filter(Boolean),
        name: options.name ?? null,
      }, systemAudit('cli.api-keys:create')),
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
    run: (context, options) => context.get(ApiKeysService).revoke(value(options, 'key'), systemAudit('cli.api-keys:revoke')),
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
