import { Injectable } from '@nestjs/common';
import * as path from 'node:path';
import { Environment, PricedPlan } from './config.schema';
import { parseTrustProxy, TrustProxy } from './trust-proxy';

export interface DatabaseSettings {
  /** Connections of the pool every transaction and ordinary read uses. */
  poolSize: number;
  /** Connections reserved for the access check; 0 = the check uses the main pool (embedded). */
  checkPoolSize: number;
  /** Longest wait for a pooled connection (or a new one) before the request fails with 503. */
  acquireTimeoutMilliseconds: number;
  statementTimeoutMilliseconds: number;
  idleTransactionTimeoutMilliseconds: number;
  /** Transactions one merchant may run at once (both modes together). */
  tenantTransactions: number;
  /** Transactions of one merchant allowed to wait for a turn; more → 503. */
  tenantQueue: number;
  /** Longest wait for a turn → 503. */
  tenantQueueTimeoutMilliseconds: number;
}

export interface HttpTimeouts {
  headersMilliseconds: number;
  requestMilliseconds: number;
}

/** Typed, read-only access to the validated configuration. */
@Injectable()
export class AppConfig {
  constructor(private readonly environment: Environment) {}

  /** Interface to listen on: every interface by default (containers); 127.0.0.1 keeps it local. */
  get host(): string {
    return this.environment.HOST;
  }
  get port(): number {
    return this.environment.PORT;
  }
  get isProduction(): boolean {
    return this.environment.NODE_ENV === 'production';
  }
  get databaseUrl(): string | undefined {
    return this.environment.DATABASE_URL;
  }
  /** A streaming replica for reads that may lag (lists, the event log, usage); unset → the primary (DESIGN §15). */
  get databaseReadUrl(): string | undefined {
    return this.environment.DATABASE_READ_URL;
  }
  /** A direct connection for migrations when DATABASE_URL is a transaction pooler; unset → DATABASE_URL. */
  get databaseMigrationUrl(): string | undefined {
    return this.environment.DATABASE_MIGRATION_URL;
  }
  /** false: no named prepared statements (transaction poolers that don't keep them across transactions). */
  get databasePreparedStatements(): boolean {
    return this.environment.DATABASE_PREPARED_STATEMENTS;
  }
  get embeddedDatabase(): boolean {
    return this.environment.DATABASE_URL === undefined;
  }
  /**
   * Pool and fairness settings. The embedded database is one session: one connection, one
   * transaction at a time, and the check shares it.
   */
  get database(): DatabaseSettings {
    const embedded = this.embeddedDatabase;
    const poolSize = embedded ? 1 : this.environment.DATABASE_POOL_SIZE;
    return {
      poolSize,
      checkPoolSize: embedded ? 0 : this.environment.DATABASE_CHECK_POOL_SIZE,
      acquireTimeoutMilliseconds: this.environment.DATABASE_ACQUIRE_TIMEOUT,
      statementTimeoutMilliseconds: this.environment.DATABASE_STATEMENT_TIMEOUT,
      idleTransactionTimeoutMilliseconds: this.environment.DATABASE_IDLE_TRANSACTION_TIMEOUT,
      // Half the pool by default: one merchant's burst always leaves the other half to the rest.
      tenantTransactions: embedded ? 1 : (this.environment.DATABASE_TENANT_TRANSACTIONS ?? Math.max(1, Math.floor(poolSize / 2))),
      tenantQueue: this.environment.DATABASE_TENANT_QUEUE,
      tenantQueueTimeoutMilliseconds: this.environment.DATABASE_TENANT_QUEUE_TIMEOUT,
    };
  }
  /** Fair share (DESIGN §15): one merchant's requests handled at once, and how many may wait for a turn. */
  get merchantAdmission(): { inFlight: number; queue: number; queueTimeoutMilliseconds: number } {
    return {
      inFlight: this.environment.MERCHANT_REQUESTS_IN_FLIGHT,
      queue: this.environment.MERCHANT_REQUEST_QUEUE,
      queueTimeoutMilliseconds: this.environment.MERCHANT_REQUEST_QUEUE_TIMEOUT,
    };
  }
  get dataDirectory(): string {
    return path.resolve(this.environment.DATA_DIR);
  }
  get storageDriver(): 'local' | 's3' {
    return this.environment.STORAGE_DRIVER;
  }
  get publicBaseUrl(): string {
    return (this.environment.PUBLIC_BASE_URL ?? `http://localhost:${this.environment.PORT}`).replace(/\/$/, '');
  }
  get localStorageSecret(): string | undefined {
    return this.environment.LOCAL_STORAGE_SECRET;
  }
  /** HMAC secret of pagination cursors; unset = generated into DATA_DIR/secrets. */
  get cursorSecret(): string | undefined {
    return this.environment.CURSOR_SECRET;
  }
  get s3(): {
    bucket: string | undefined;
    region: string;
    endpoint: string | undefined;
    forcePathStyle: boolean;
    accessKeyId: string | undefined;
    secretAccessKey: string | undefined;
  } {
    return {
      bucket: this.environment.S3_BUCKET,
      region: this.environment.S3_REGION,
      endpoint: this.environment.S3_ENDPOINT,
      forcePathStyle: this.environment.S3_FORCE_PATH_STYLE,
      accessKeyId: this.environment.S3_ACCESS_KEY_ID,
      secretAccessKey: this.environment.S3_SECRET_ACCESS_KEY,
    };
  }
  /** Overage prices per paid plan in minor units of `overageCurrency` per GiB (DESIGN §17). */
  get overagePrices(): Readonly<Record<PricedPlan, number>> {
    return this.environment.OVERAGE_PRICES;
  }
  get overageCurrency(): string {
    return this.environment.OVERAGE_CURRENCY;
  }
  /** Stripe Billing reporting (DESIGN §17); null: off. */
  get stripe(): { secretKey: string; meterEventName: string; apiUrl: string | null } | null {
    const secretKey = this.environment.STRIPE_SECRET_KEY;
    if (secretKey === undefined) return null;
    return { secretKey, meterEventName: this.environment.STRIPE_METER_EVENT_NAME, apiUrl: this.environment.STRIPE_API_URL ?? null };
  }
  get redisUrl(): string | undefined {
    return this.environment.REDIS_URL;
  }
  /** Serve the merchant dashboard at /dashboard (DESIGN §11). */
  get dashboardEnabled(): boolean {
    return this.environment.DASHBOARD_ENABLED;
  }
  get adminToken(): string | undefined {
    return this.environment.ADMIN_TOKEN;
  }
  get rateLimits(): { readPerMinute: number; writePerMinute: number; authFailuresPerMinute: number } {
    return {
      readPerMinute: this.environment.RATE_LIMIT_READ_PER_MINUTE,
      writePerMinute: this.environment.RATE_LIMIT_WRITE_PER_MINUTE,
      authFailuresPerMinute: this.environment.AUTH_FAILURE_LIMIT_PER_MINUTE,
    };
  }
  /** Which hops may say who the client is (DESIGN §15); null = none, the socket's peer is the client. */
  get trustProxy(): TrustProxy | null {
    const value = this.environment.TRUST_PROXY;
    return value === undefined ? null : parseTrustProxy(value, this.environment.TRUST_PROXY_HEADER);
  }
  /** Events, deliveries and attempts older than this are pruned (DESIGN §15); 0 = kept forever. */
  get eventRetentionMilliseconds(): number {
    return this.environment.EVENT_RETENTION;
  }
  /** Audit-log rows older than this are pruned (DESIGN §11); 0 = kept forever. */
  get auditRetentionMilliseconds(): number {
    return this.environment.AUDIT_RETENTION;
  }
  get webhookRetryScheduleMilliseconds(): number[] {
    return this.environment.WEBHOOK_RETRY_SCHEDULE;
  }
  get webhookAllowPrivateUrls(): boolean {
    return this.environment.WEBHOOK_ALLOW_PRIVATE_URLS;
  }
  /** Deliveries in flight to one endpoint at once, across instances (DESIGN §8). */
  get webhookEndpointConcurrency(): number {
    return this.environment.WEBHOOK_ENDPOINT_CONCURRENCY;
  }
  get expirySweepIntervalMilliseconds(): number {
    return this.environment.EXPIRY_SWEEP_INTERVAL;
  }
  /** How often an idle import worker looks for rows left pending by another instance or a crash. */
  get importPollIntervalMilliseconds(): number {
    return this.environment.IMPORT_POLL_INTERVAL;
  }
  /** How often the pruner deletes what has outlived its retention (DESIGN §15). */
  get pruneIntervalMilliseconds(): number {
    return this.environment.PRUNE_INTERVAL;
  }
  /** Longest lifetime of a signed entitlement token (DESIGN §12). */
  get entitlementTokenTtlMilliseconds(): number {
    return this.environment.ENTITLEMENT_TOKEN_TTL;
  }
  /** Ed25519 private key (PEM or JWK) of entitlement tokens; unset = generated into DATA_DIR. */
  get entitlementSigningKey(): string | undefined {
    return this.environment.ENTITLEMENT_SIGNING_KEY;
  }
  /** Tests boot many apps on empty databases and create their own merchants. */
  get skipDemoSeed(): boolean {
    return this.environment.SKIP_DEMO_SEED;
  }
  get logLevel(): Environment['LOG_LEVEL'] {
    return this.environment.LOG_LEVEL;
  }
  get httpAdapter(): Environment['HTTP_ADAPTER'] {
    return this.environment.HTTP_ADAPTER;
  }
  /** Slow clients: headers within `headersMilliseconds`, a body within `requestMilliseconds` of them. */
  get httpTimeouts(): HttpTimeouts {
    return {
      headersMilliseconds: this.environment.HTTP_HEADERS_TIMEOUT,
      requestMilliseconds: this.environment.HTTP_REQUEST_TIMEOUT,
    };
  }
  /** Local-storage uploads may take HTTP_REQUEST_TIMEOUT plus their size at this rate (capped; LocalStorageController). */
  get localUploadMinBytesPerSecond(): number {
    return this.environment.LOCAL_UPLOAD_MIN_BYTES_PER_SECOND;
  }

  /** The metrics listener (DESIGN §16): null when METRICS_PORT is unset, so nothing is counted. */
  get metrics(): { port: number; host: string } | null {
    const port = this.environment.METRICS_PORT;
    return port === undefined ? null : { port, host: this.environment.METRICS_HOST };
  }

  /** Where traces go over OTLP/HTTP; null = tracing off (DESIGN §16). */
  get tracesEndpoint(): string | null {
    return this.environment.OTEL_EXPORTER_OTLP_ENDPOINT ?? null;
  }
}
