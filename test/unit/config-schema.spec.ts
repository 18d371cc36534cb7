import { generateKeyPairSync } from 'node:crypto';
import { AppConfig } from '../../src/config/app-config';
import { validateEnvironment } from '../../src/config/config.schema';

function messageOf(source: Record<string, string | undefined>): string {
  try {
    validateEnvironment(source);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be refused');
}

describe('config schema', () => {
  it('has working defaults with no environment at all (embedded start)', () => {
    const environment = validateEnvironment({});
    expect(environment).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      STORAGE_DRIVER: 'local',
      RATE_LIMIT_READ_PER_MINUTE: 120,
      RATE_LIMIT_WRITE_PER_MINUTE: 60,
      AUTH_FAILURE_LIMIT_PER_MINUTE: 30,
      EXPIRY_SWEEP_INTERVAL: 30_000,
      HTTP_ADAPTER: 'express',
      HTTP_HEADERS_TIMEOUT: 10_000,
      HTTP_REQUEST_TIMEOUT: 30_000,
      LOCAL_UPLOAD_MIN_BYTES_PER_SECOND: 65_536,
    });
    expect(environment.DATABASE_URL).toBeUndefined();
    expect(environment.CURSOR_SECRET).toBeUndefined();
    expect(environment.ADMIN_TOKEN).toBeUndefined();
    expect(environment.REDIS_URL).toBeUndefined();
    expect(environment.WEBHOOK_RETRY_SCHEDULE).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
  });

  it('converts typed values', () => {
    const environment = validateEnvironment({
      PORT: '8080',
      DATABASE_URL: 'postgres://user@db:5432/app',
      RATE_LIMIT_READ_PER_MINUTE: '5',
      WEBHOOK_RETRY_SCHEDULE: '1s, 2m',
      EXPIRY_SWEEP_INTERVAL: '2m',
      S3_FORCE_PATH_STYLE: 'true',
      ADMIN_TOKEN: '',
      REDIS_URL: '',
    });
    expect(environment).toMatchObject({
      PORT: 8080,
      DATABASE_URL: 'postgres://user@db:5432/app',
      RATE_LIMIT_READ_PER_MINUTE: 5,
      WEBHOOK_RETRY_SCHEDULE: [1_000, 120_000],
      EXPIRY_SWEEP_INTERVAL: 120_000,
      S3_FORCE_PATH_STYLE: true,
    });
    expect(environment.ADMIN_TOKEN).toBeUndefined();
    expect(environment.REDIS_URL).toBeUndefined();
  });

  it.each([
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['RATE_LIMIT_READ_PER_MINUTE', { RATE_LIMIT_READ_PER_MINUTE: '0' }],
    ['RATE_LIMIT_WRITE_PER_MINUTE', { RATE_LIMIT_WRITE_PER_MINUTE: '-1' }],
    ['AUTH_FAILURE_LIMIT_PER_MINUTE', { AUTH_FAILURE_LIMIT_PER_MINUTE: '2.5' }],
    ['STORAGE_DRIVER', { STORAGE_DRIVER: 'ftp' }],
    ['S3_BUCKET', { STORAGE_DRIVER: 's3' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://localhost/db' }],
    ['REDIS_URL', { REDIS_URL: 'not a url' }],
    ['ADMIN_TOKEN', { ADMIN_TOKEN: 'short' }],
    ['WEBHOOK_RETRY_SCHEDULE', { WEBHOOK_RETRY_SCHEDULE: '5s,soon' }],
    ['EXPIRY_SWEEP_INTERVAL', { EXPIRY_SWEEP_INTERVAL: '0s' }],
    ['S3_FORCE_PATH_STYLE', { S3_FORCE_PATH_STYLE: 'yes' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'verbose' }],
    ['DATABASE_POOL_SIZE', { DATABASE_POOL_SIZE: '0' }],
    ['DATABASE_CHECK_POOL_SIZE', { DATABASE_CHECK_POOL_SIZE: 'many' }],
    ['DATABASE_ACQUIRE_TIMEOUT', { DATABASE_ACQUIRE_TIMEOUT: 'soon' }],
    ['DATABASE_STATEMENT_TIMEOUT', { DATABASE_STATEMENT_TIMEOUT: '0s' }],
    ['DATABASE_IDLE_TRANSACTION_TIMEOUT', { DATABASE_IDLE_TRANSACTION_TIMEOUT: '-1m' }],
    ['DATABASE_TENANT_TRANSACTIONS', { DATABASE_TENANT_TRANSACTIONS: '11' }],
    ['DATABASE_TENANT_QUEUE', { DATABASE_TENANT_QUEUE: '0' }],
    ['DATABASE_TENANT_QUEUE_TIMEOUT', { DATABASE_TENANT_QUEUE_TIMEOUT: 'never' }],
    ['MERCHANT_REQUESTS_IN_FLIGHT', { MERCHANT_REQUESTS_IN_FLIGHT: '0' }],
    ['MERCHANT_REQUEST_QUEUE', { MERCHANT_REQUEST_QUEUE: 'lots' }],
    ['MERCHANT_REQUEST_QUEUE_TIMEOUT', { MERCHANT_REQUEST_QUEUE_TIMEOUT: '10' }],
    ['ENTITLEMENT_TOKEN_TTL', { ENTITLEMENT_TOKEN_TTL: '0s' }],
    ['ENTITLEMENT_SIGNING_KEY', { ENTITLEMENT_SIGNING_KEY: 'not a key' }],
    ['HTTP_ADAPTER', { HTTP_ADAPTER: 'koa' }],
    ['HTTP_HEADERS_TIMEOUT', { HTTP_HEADERS_TIMEOUT: '10' }],
    ['HTTP_REQUEST_TIMEOUT', { HTTP_REQUEST_TIMEOUT: '0s' }],
    ['HTTP_HEADERS_TIMEOUT', { HTTP_HEADERS_TIMEOUT: '40s', HTTP_REQUEST_TIMEOUT: '30s' }],
    ['LOCAL_UPLOAD_MIN_BYTES_PER_SECOND', { LOCAL_UPLOAD_MIN_BYTES_PER_SECOND: '64KiB' }],
  ])('a bad value stops start-up with a message naming %s', (variable, source) => {
    const message = messageOf(source);
    expect(message).toMatch(/^Invalid configuration/);
    expect(message).toContain(variable);
  });

  it('takes the Fastify opt-in and shorter timeouts', () => {
    expect(validateEnvironment({ HTTP_ADAPTER: 'fastify', HTTP_HEADERS_TIMEOUT: '2s', HTTP_REQUEST_TIMEOUT: '5s' })).toMatchObject({
      HTTP_ADAPTER: 'fastify',
      HTTP_HEADERS_TIMEOUT: 2_000,
      HTTP_REQUEST_TIMEOUT: 5_000,
    });
  });

  it('treats an empty value as unset, so the default applies', () => {
    const environment = validateEnvironment({ PORT: '', RATE_LIMIT_READ_PER_MINUTE: ' ', STORAGE_DRIVER: '', DATA_DIR: '' });
    expect(environment).toMatchObject({ PORT: 3000, RATE_LIMIT_READ_PER_MINUTE: 120, STORAGE_DRIVER: 'local', DATA_DIR: './data' });
  });

  it('sizes the pools, timeouts and the per-merchant share, with one connection for the embedded database', () => {
    expect(new AppConfig(validateEnvironment({ DATABASE_URL: 'postgres://db/app' })).database).toEqual({
      poolSize: 10,
      checkPoolSize: 4,
      acquireTimeoutMilliseconds: 5_000,
      statementTimeoutMilliseconds: 30_000,
      idleTransactionTimeoutMilliseconds: 60_000,
      tenantTransactions: 5,
      tenantQueue: 1_000,
      tenantQueueTimeoutMilliseconds: 10_000,
    });
    const tuned = new AppConfig(
      validateEnvironment({ DATABASE_URL: 'postgres://db/app', DATABASE_POOL_SIZE: '20', DATABASE_TENANT_TRANSACTIONS: '4', DATABASE_STATEMENT_TIMEOUT: '2s' }),
    ).database;
    expect(tuned).toMatchObject({ poolSize: 20, tenantTransactions: 4, statementTimeoutMilliseconds: 2_000 });
    expect(new AppConfig(validateEnvironment({ DATABASE_POOL_SIZE: '20' })).database).toMatchObject({ poolSize: 1, checkPoolSize: 0, tenantTransactions: 1 });
  });

  it('takes a replica, a direct migration URL and unnamed statements beside DATABASE_URL, and refuses them without it (DESIGN §15)', () => {
    const defaults = new AppConfig(validateEnvironment({ DATABASE_URL: 'postgres://db/app' }));
    expect([defaults.databaseReadUrl, defaults.databaseMigrationUrl, defaults.databasePreparedStatements]).toEqual([undefined, undefined, true]);
    const pooled = new AppConfig(
      validateEnvironment({
        DATABASE_URL: 'postgres://pgbouncer:6432/app',
        DATABASE_READ_URL: 'postgres://replica/app',
        DATABASE_MIGRATION_URL: 'postgresql://primary/app',
        DATABASE_PREPARED_STATEMENTS: 'false',
      }),
    );
    expect([pooled.databaseReadUrl, pooled.databaseMigrationUrl, pooled.databasePreparedStatements]).toEqual(['postgres://replica/app', 'postgresql://primary/app', false]);
    expect(messageOf({ DATABASE_READ_URL: 'postgres://replica/app' })).toContain('need DATABASE_URL');
    expect(messageOf({ DATABASE_MIGRATION_URL: 'postgres://primary/app' })).toContain('need DATABASE_URL');
    expect(messageOf({ DATABASE_URL: 'postgres://db/app', DATABASE_READ_URL: 'mysql://replica/app' })).toContain('DATABASE_READ_URL');
    expect(messageOf({ DATABASE_URL: 'postgres://db/app', DATABASE_PREPARED_STATEMENTS: 'no' })).toContain('DATABASE_PREPARED_STATEMENTS');
  });

  it('takes the token TTL as a duration and an Ed25519 signing key as PEM or JWK', () => {
    const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const jwk = JSON.stringify(generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }));
    expect(validateEnvironment({})).toMatchObject({ ENTITLEMENT_TOKEN_TTL: 3_600_000 });
    expect(validateEnvironment({}).ENTITLEMENT_SIGNING_KEY).toBeUndefined();
    expect(validateEnvironment({ ENTITLEMENT_TOKEN_TTL: '15m', ENTITLEMENT_SIGNING_KEY: pem })).toMatchObject({ ENTITLEMENT_TOKEN_TTL: 900_000, ENTITLEMENT_SIGNING_KEY: pem });
    expect(validateEnvironment({ ENTITLEMENT_SIGNING_KEY: jwk }).ENTITLEMENT_SIGNING_KEY).toBe(jwk);
  });

  it('names every bad variable at once', () => {
    const message = messageOf({ PORT: 'abc', STORAGE_DRIVER: 'ftp' });
    expect(message).toContain('PORT');
    expect(message).toContain('STORAGE_DRIVER');
  });
});
