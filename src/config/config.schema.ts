import { z } from 'zod';
import { parseEd25519PrivateKey } from './ed25519-key';
import { parseDuration } from './duration';
import { parseTrustProxy } from './trust-proxy';

const booleanString = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

const positiveInteger = z.coerce.number().int().positive();

/** A rate limit a minute fits the X-RateLimit-* headers' documented int32. */
export const RATE_LIMIT_PER_MINUTE_MAX = 2_147_483_647;
const rateLimit = positiveInteger.max(RATE_LIMIT_PER_MINUTE_MAX);

const duration = z.string().transform((value, context) => {
  const milliseconds = parseDuration(value);
  if (milliseconds === null || milliseconds <= 0) {
    context.addIssue({ code: 'custom', message: `"${value}" is not a duration such as 30s, 5m or 2h` });
    return z.NEVER;
  }
  return milliseconds;
});

const durationList = z.string().transform((value, context) => {
  const parts = value.split(',').map((part) => part.trim());
  const milliseconds = parts.map(parseDuration);
  if (parts.length === 0 || milliseconds.some((item) => item === null || item <= 0)) {
    context.addIssue({ code: 'custom', message: `"${value}" is not a comma-separated list of durations such as 5s,5m,30m` });
    return z.NEVER;
  }
  return milliseconds as number[];
});

/** A duration, or `0` for "never" (EVENT_RETENTION: keep forever). */
const durationOrZero = z.string().transform((value, context) => {
  if (value.trim() === '0') return 0;
  const milliseconds = parseDuration(value);
  if (milliseconds === null || milliseconds <= 0) {
    context.addIssue({ code: 'custom', message: `"${value}" is not a duration such as 90d or 12h, nor 0 (keep forever)` });
    return z.NEVER;
  }
  return milliseconds;
});

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value));

const url = (protocols: string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL with protocol ${protocols.join(' or ')}` },
  );

/** The paid plans an overage price is set for (DESIGN §17); free is a hard cap and has none. */
export const PRICED_PLANS = ['growth', 'pro', 'enterprise'] as const;
export type PricedPlan = (typeof PRICED_PLANS)[number];

/** `growth:10,pro:8,enterprise:5`: minor units of OVERAGE_CURRENCY per GiB, an integer for every paid plan. */
const overagePrices = z.string().transform((value, context) => {
  const prices: Partial<Record<PricedPlan, number>> = {};
  for (const pair of value.split(',').map((part) => part.trim())) {
    const match = /^([a-z]+):(\d{1,12})$/.exec(pair);
    if (!match || !(PRICED_PLANS as readonly string[]).includes(match[1]) || match[1] in prices) {
      context.addIssue({ code: 'custom', message: `"${pair}" is not plan:price (a paid plan once, an integer of minor units per GiB)` });
      return z.NEVER;
    }
    prices[match[1] as PricedPlan] = Number(match[2]);
  }
  const missing = PRICED_PLANS.filter((plan) => prices[plan] === undefined);
  if (missing.length > 0) {
    context.addIssue({ code: 'custom', message: `no price for ${missing.join(', ')} (every paid plan needs one, e.g. growth:10,pro:8,enterprise:5)` });
    return z.NEVER;
  }
  return prices as Record<PricedPlan, number>;
});

/** Every environment variable of DESIGN §2, validated once at start. */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: url(['postgres:', 'postgresql:']).optional().or(z.literal('').transform(() => undefined)),
  DATABASE_POOL_SIZE: positiveInteger.default(10),
  DATABASE_CHECK_POOL_SIZE: positiveInteger.default(4),
  DATABASE_ACQUIRE_TIMEOUT: duration.default(5_000),
  DATABASE_STATEMENT_TIMEOUT: duration.default(30_000),
  DATABASE_IDLE_TRANSACTION_TIMEOUT: duration.default(60_000),
  DATABASE_TENANT_TRANSACTIONS: positiveInteger.optional(),
  DATABASE_TENANT_QUEUE: positiveInteger.default(1_000),
  DATABASE_TENANT_QUEUE_TIMEOUT: duration.default(10_000),
  MERCHANT_REQUESTS_IN_FLIGHT: positiveInteger.default(2),
  MERCHANT_REQUEST_QUEUE: positiveInteger.default(1_000),
  MERCHANT_REQUEST_QUEUE_TIMEOUT: duration.default(10_000),
  DATABASE_READ_URL: url(['postgres:', 'postgresql:']).optional().or(z.literal('').transform(() => undefined)),
  DATABASE_MIGRATION_URL: url(['postgres:', 'postgresql:']).optional().or(z.literal('').transform(() => undefined)),
  DATABASE_PREPARED_STATEMENTS: booleanString.default(true),
  DATA_DIR: z.string().min(1).default('./data'),
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  PUBLIC_BASE_URL: url(['http:', 'https:']).optional().or(z.literal('').transform(() => undefined)),
  LOCAL_STORAGE_SECRET: optionalString,
  CURSOR_SECRET: optionalString,
  S3_BUCKET: optionalString,
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: url(['http:', 'https:']).optional().or(z.literal('').transform(() => undefined)),
  S3_FORCE_PATH_STYLE: booleanString.default(false),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  REDIS_URL: url(['redis:', 'rediss:']).optional().or(z.literal('').transform(() => undefined)),
  ADMIN_TOKEN: z
    .string()
    .optional()
    .transform((value) => (value === undefined || value === '' ? undefined : value))
    .refine((value) => value === undefined || value.length >= 16, { message: 'must be at least 16 characters' }),
  RATE_LIMIT_READ_PER_MINUTE: rateLimit.default(120),
  RATE_LIMIT_WRITE_PER_MINUTE: rateLimit.default(60),
  AUTH_FAILURE_LIMIT_PER_MINUTE: rateLimit.default(30),
  TRUST_PROXY: optionalString.superRefine((value, context) => {
    if (value === undefined) return;
    try {
      parseTrustProxy(value, 'x-forwarded-for');
    } catch (error) {
      context.addIssue({ code: 'custom', message: `${(error as Error).message} (expected loopback, a comma-separated list of CIDRs, or a hop count)` });
    }
  }),
  TRUST_PROXY_HEADER: z.enum(['x-forwarded-for', 'forwarded']).default('x-forwarded-for'),
  EVENT_RETENTION: durationOrZero.default(90 * 86_400_000),
  AUDIT_RETENTION: durationOrZero.default(400 * 86_400_000),
  WEBHOOK_RETRY_SCHEDULE: durationList.default([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]),
  WEBHOOK_ALLOW_PRIVATE_URLS: booleanString.default(false),
  WEBHOOK_ENDPOINT_CONCURRENCY: positiveInteger.max(1_000).default(10),
  EXPIRY_SWEEP_INTERVAL: duration.default(30_000),
  IMPORT_POLL_INTERVAL: duration.default(1_000),
  PRUNE_INTERVAL: duration.default(600_000),
  ENTITLEMENT_TOKEN_TTL: duration.default(3_600_000),
  ENTITLEMENT_SIGNING_KEY: optionalString.superRefine((value, context) => {
    if (value === undefined) return;
    try {
      parseEd25519PrivateKey(value);
    } catch (error) {
      context.addIssue({ code: 'custom', message: (error as Error).message });
    }
  }),
  SKIP_DEMO_SEED: booleanString.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  HTTP_ADAPTER: z.enum(['express', 'fastify']).default('express'),
  DASHBOARD_ENABLED: booleanString.default(true),
  HTTP_HEADERS_TIMEOUT: duration.default(10_000),
  HTTP_REQUEST_TIMEOUT: duration.default(30_000),
  LOCAL_UPLOAD_MIN_BYTES_PER_SECOND: positiveInteger.default(64 * 1024),
  // Unset: no metrics listener. 0 asks the system for a free port (tests read the bound one).
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  OTEL_EXPORTER_OTLP_ENDPOINT: url(['http:', 'https:']).optional().or(z.literal('').transform(() => undefined)),
  OVERAGE_PRICES: overagePrices.default({ growth: 10, pro: 8, enterprise: 5 }),
  OVERAGE_CURRENCY: z
    .string()
    .regex(/^[a-z]{3}$/, 'must be a three-letter ISO 4217 code in lower case, e.g. usd')
    .default('usd'),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_METER_EVENT_NAME: z
    .string()
    .regex(/^[a-z0-9_]{1,100}$/, "must be a Stripe meter's event name (lower-case letters, digits, _)")
    .default('bandwidth_overage'),
  // Unset: Stripe's own API. A local stand-in for tests and development (the library's host, port and protocol).
  STRIPE_API_URL: url(['http:', 'https:']).optional().or(z.literal('').transform(() => undefined)),
});

export type EnvironmentInput = z.input<typeof configSchema>;
export type Environment = z.output<typeof configSchema>;

/** Validates the environment; throws one error whose message names every bad variable. */
export function validateEnvironment(source: Record<string, string | undefined>): Environment {
  // An empty value (`PORT=` in an .env file or compose) means unset, so the default applies
  // instead of coercing '' to 0 (PORT= would otherwise listen on a random port).
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value.trim() !== ''));
  const result = configSchema.safeParse(present);
  if (result.success) {
    if (result.data.STORAGE_DRIVER === 's3' && !result.data.S3_BUCKET) {
      throw new Error('Invalid configuration: S3_BUCKET is required when STORAGE_DRIVER=s3');
    }
    if (!result.data.DATABASE_URL && (result.data.DATABASE_READ_URL || result.data.DATABASE_MIGRATION_URL)) {
      throw new Error('Invalid configuration: DATABASE_READ_URL and DATABASE_MIGRATION_URL need DATABASE_URL (the embedded database has no replica and no pooler)');
    }
    if ((result.data.DATABASE_TENANT_TRANSACTIONS ?? 0) > result.data.DATABASE_POOL_SIZE) {
      throw new Error('Invalid configuration: DATABASE_TENANT_TRANSACTIONS must not exceed DATABASE_POOL_SIZE');
    }
    if (result.data.HTTP_HEADERS_TIMEOUT > result.data.HTTP_REQUEST_TIMEOUT) {
      throw new Error('Invalid configuration: HTTP_HEADERS_TIMEOUT may not be longer than HTTP_REQUEST_TIMEOUT');
    }
    return result.data;
  }
  const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  throw new Error(`Invalid configuration: ${problems.join('; ')}`);
}
