import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Metric, Registry } from 'prom-client';
import { AppConfig } from '../config/app-config';
import { RouteRequests, scrapedMetric } from './route-series';

/** The label of a request no route matched (a 404, or refused before routing): never the raw path. */
export const UNMATCHED_ROUTE = 'unmatched';

/** One database pool's connections, read when Prometheus scrapes. */
export interface PoolStatistics {
  pool: string;
  total: number;
  idle: number;
  waiting: number;
}

/** Pending webhook deliveries: how many, and the oldest one's age in seconds (0 when none). */
export interface PendingDeliveries {
  count: number;
  oldestAgeSeconds: number;
}

/**
 * The service's Prometheus metrics (DESIGN §16), one registry per application. Counting is off
 * (every method returns at once) unless METRICS_PORT is set, so an instance without a metrics
 * listener pays nothing. Labels are bounded sets (route patterns, kinds, outcomes): never a
 * merchant, customer or key, for cardinality and privacy.
 */
@Injectable()
export class Metrics {
  readonly enabled: boolean;
  readonly registry = new Registry();
  private readonly requests = new RouteRequests();
  /** The check's results as plain numbers: the hot path increments one. */
  private readonly checkResults = { entitled: 0, notEntitled: 0 };
  private readonly databaseErrors = new Counter({
    name: 'db_errors_total',
    help: 'Failed database statements, by kind (the SQLSTATE class, or connection)',
    labelNames: ['kind'] as const,
    registers: [],
  });
  private readonly webhookAttempts = new Counter({
    name: 'webhook_attempts_total',
    help: 'Webhook delivery attempts, by outcome',
    labelNames: ['outcome'] as const,
    registers: [],
  });
  private readonly importRows = new Counter({ name: 'import_rows_processed_total', help: 'Rows of bulk imports processed', registers: [] });
  private readonly rateLimits = new Counter({
    name: 'rate_limited_total',
    help: 'Requests refused with 429, by budget (read, write, auth_failures)',
    labelNames: ['kind'] as const,
    registers: [],
  });
  private readonly authFailures = new Counter({
    name: 'auth_failures_total',
    help: 'Failed authentications, by kind (the error code answered)',
    labelNames: ['kind'] as const,
    registers: [],
  });
  private poolSources: Array<() => PoolStatistics[]> = [];
  private pendingSource: (() => Promise<PendingDeliveries>) | null = null;
  private pending: PendingDeliveries = { count: 0, oldestAgeSeconds: 0 };

  constructor(config: AppConfig) {
    this.enabled = config.metrics !== null;
    if (!this.enabled) return;
    const checks = this.checkResults;
    const counted: Metric[] = [
      ...this.requests.metrics(),
      scrapedMetric('entitlement_checks_total', 'Access checks answered, by result', 'counter', () => [
        { labels: { result: 'entitled' }, value: checks.entitled },
        { labels: { result: 'not_entitled' }, value: checks.notEntitled },
      ]),
      this.databaseErrors,
      this.webhookAttempts,
      this.importRows,
      this.rateLimits,
      this.authFailures,
    ];
    for (const metric of counted) this.registry.registerMetric(metric);
    this.registerCollectedGauges();
    collectDefaultMetrics({ register: this.registry });
  }

  /** A request answered: `route` is the matched pattern (UNMATCHED_ROUTE when none), `seconds` its duration. */
  request(method: string, route: string, status: number, seconds: number): void {
    if (this.enabled) this.requests.record(method, route, status, seconds);
  }

  entitlementCheck(entitled: boolean): void {
    if (!this.enabled) return;
    if (entitled) this.checkResults.entitled += 1;
    else this.checkResults.notEntitled += 1;
  }

  databaseError(kind: string): void {
    if (this.enabled) this.databaseErrors.labels(kind).inc();
  }

  webhookAttempt(outcome: 'succeeded' | 'failed'): void {
    if (this.enabled) this.webhookAttempts.labels(outcome).inc();
  }

  importRowsProcessed(count: number): void {
    if (this.enabled && count > 0) this.importRows.inc(count);
  }

  rateLimited(kind: 'read' | 'write' | 'auth_failures'): void {
    if (this.enabled) this.rateLimits.labels(kind).inc();
  }

  authFailure(kind: string): void {
    if (this.enabled) this.authFailures.labels(kind).inc();
  }

  /** Where db_pool_connections reads the pools (the database module gives them). */
  observePools(source: () => PoolStatistics[]): void {
    this.poolSources.push(source);
  }

  /** Where the pending-delivery gauges read, on each scrape (the webhooks module gives a cheap query). */
  observePendingDeliveries(source: () => Promise<PendingDeliveries>): void {
    this.pendingSource = source;
  }

  /** The Prometheus text exposition of every metric. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    // Both pending-delivery gauges from one query per scrape.
    // A failed read (database down) keeps the last values: the scrape still shows everything else.
    if (this.pendingSource) this.pending = await this.pendingSource().catch(() => this.pending);
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  private registerCollectedGauges(): void {
    const sources = () => this.poolSources;
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database pool connections, by pool and state (idle, busy, waiting: requests queued for a connection)',
      labelNames: ['pool', 'state'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const source of sources()) {
          for (const { pool, total, idle, waiting } of source()) {
            this.set({ pool, state: 'idle' }, idle);
            this.set({ pool, state: 'busy' }, total - idle);
            this.set({ pool, state: 'waiting' }, waiting);
          }
        }
      },
    });
    const pending = () => this.pending;
    new Gauge({
      name: 'webhook_deliveries_pending',
      help: 'Webhook deliveries not yet delivered nor given up',
      registers: [this.registry],
      collect() {
        this.set(pending().count);
      },
    });
    new Gauge({
      name: 'webhook_oldest_pending_age_seconds',
      help: 'Age of the oldest pending webhook delivery (0 when none is pending)',
      registers: [this.registry],
      collect() {
        this.set(pending().oldestAgeSeconds);
      },
    });
  }
}
