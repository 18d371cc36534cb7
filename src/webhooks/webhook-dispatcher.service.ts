import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { AppConfig } from '../config/app-config';
import { UnitOfWork } from '../database/unit-of-work';
import { EVENTS_COMMITTED } from '../database/domain-event';
import { Metrics } from '../observability/metrics';
import { ATTR_HTTP_RESPONSE_STATUS_CODE } from '../observability/span-attributes';
import { failed, Tracing } from '../observability/tracing';
import { toEventResponse } from './event.mapper';
import { AttemptBatcher } from './attempt-batcher';
import { CLAIM_WINDOW, ClaimedDelivery, FinishedAttempt, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { isSuccessStatus, SEND_TIMEOUT_MILLISECONDS, WebhookSender } from './webhook-sender';

const POLL_INTERVAL_MILLISECONDS = 1_000;
/** Longer than a send, so a live instance never loses its lease mid-send. */
const LEASE_MILLISECONDS = SEND_TIMEOUT_MILLISECONDS + 5_000;
/**
 * Sends in flight per instance, at least this many; twice an endpoint's concurrency when that is
 * more, so one busy endpoint never holds every slot.
 */
const MIN_INSTANCE_IN_FLIGHT = 100;
/**
 * Commits and finished sends within this long of one another share one claim. A claim costs the
 * database about a millisecond whatever it returns (it reads the head of each endpoint's queue):
 * claiming after every finished send, or every commit, cost more than the sends (bench/README.md).
 */
const WAKE_DELAY_MILLISECONDS = 5;
/** Retries land within ±20 % of the schedule, so failing endpoints are not hit in lockstep. */
const JITTER = 0.2;

/**
 * Sends queued deliveries: woken after each commit that published events, and polling every
 * second for retries and for work left by other or crashed instances. Up to
 * WEBHOOK_ENDPOINT_CONCURRENCY deliveries are in flight to one endpoint, the events of one object
 * one after the other (the claim decides: webhook-deliveries.repository.ts).
 *
 * Its loop is its own, not BackgroundLoop (which the import worker, the sweeper and the pruner
 * share): a pass here (a claim) only starts sends, which go on after it and are what `stop()` must
 * wait for; wake-ups come from every commit and finished send and are coalesced over a few
 * milliseconds rather than run at once; the poll stays every second whatever failed, because
 * retries due sooner than that are timed by the delivery schedule, not by the loop; and a failed
 * claim costs one query, so backing off would only delay deliveries the next claim can take.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private readonly sender: WebhookSender;
  private readonly maxInFlight: number;
  /** Attempts are recorded in batches: one statement for every send that finished meanwhile. */
  private readonly attempts: AttemptBatcher<FinishedAttempt>;
  private timer: NodeJS.Timeout | null = null;
  private finishedSendWake: NodeJS.Timeout | null = null;
  private claiming: Promise<void> | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private wakeRequested = false;
  private stopped = false;

  constructor(
    private readonly config: AppConfig,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly metrics: Metrics,
    private readonly tracing: Tracing,
  ) {
    this.sender = new WebhookSender();
    this.maxInFlight = Math.max(MIN_INSTANCE_IN_FLIGHT, 2 * config.webhookEndpointConcurrency);
    this.attempts = new AttemptBatcher((finished) => this.deliveries.recordAttempts(this.unitOfWork.pool, finished));
  }

  onApplicationBootstrap(): void {
    this.metrics.observePendingDeliveries(() => this.deliveries.pendingAcrossTenants());
    this.timer = setInterval(() => this.wake(), POLL_INTERVAL_MILLISECONDS);
    this.timer.unref();
    this.wake();
  }

  /** A commit that published events: its deliveries are claimed with those of the commits of the next few milliseconds. */
  @OnEvent(EVENTS_COMMITTED)
  committed(): void {
    this.wakeSoon();
  }

  wake(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.wakeRequested = true;
      return;
    }
    this.claiming = this.claim()
      .catch((error: unknown) => this.logger.error(`claiming webhook deliveries failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        this.claiming = null;
        if (this.wakeRequested && !this.stopped) {
          this.wakeRequested = false;
          this.wake();
        }
      });
  }

  /** Stops claiming new work; what is in flight finishes (each send is bounded by its timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.finishedSendWake) clearTimeout(this.finishedSendWake);
    this.finishedSendWake = null;
    await this.claiming;
    await Promise.all([...this.inFlight]);
  }

  onModuleDestroy(): Promise<void> {
    return this.stop();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
    await this.sender.close();
  }

  /** A wake-up shortly after a commit or a finished send, shared by those that come meanwhile. */
  private wakeSoon(): void {
    if (this.finishedSendWake || this.stopped) return;
    this.finishedSendWake = setTimeout(() => {
      this.finishedSendWake = null;
      this.wake();
    }, WAKE_DELAY_MILLISECONDS);
  }

  /**
   * Claims due deliveries while there is room and starts each; finished sends wake the next claim.
   * A claim that filled less than the room took all that was claimable: claiming again at once
   * would find nothing (each endpoint at its concurrency, or its queue's head in flight).
   */
  private async claim(): Promise<void> {
    while (!this.stopped) {
      const room = this.maxInFlight - this.inFlight.size;
      if (room <= 0) return;
      const claimed = await this.deliveries.claimDueAcrossTenants({
        limit: room,
        leaseMilliseconds: LEASE_MILLISECONDS,
        endpointConcurrency: this.config.webhookEndpointConcurrency,
        window: CLAIM_WINDOW,
      });
      for (const delivery of claimed) {
        const sending: Promise<void> = this.deliverSafely(delivery).finally(() => {
          this.inFlight.delete(sending);
          this.wakeSoon();
        });
        this.inFlight.add(sending);
      }
      if (claimed.length < room) return;
    }
  }

  /** One failure (say, the endpoint deleted mid-send) must not abandon the rest of the batch. */
  private async deliverSafely(delivery: ClaimedDelivery): Promise<void> {
    try {
      await this.deliver(delivery);
    } catch (error) {
      this.logger.warn(`delivery ${delivery.id} of ${delivery.event.id} failed to settle: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const tenant = { merchantId: delivery.merchantId, mode: delivery.mode };
    // The claim read the endpoint (enabled) and the event with the lease.
    const { endpoint, event } = delivery;
    const body = JSON.stringify(toEventResponse(event));
    const attemptedAt = new Date();
    const outcome = await this.tracing.span('webhook send', { 'webhook.event_type': event.type, 'webhook.attempt': delivery.attemptCount + 1 }, async (span) => {
      const sent = await this.sender.sendSigned(endpoint, delivery.mode, event.id, body, attemptedAt);
      if (sent.statusCode !== null) span?.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, sent.statusCode);
      if (span && !isSuccessStatus(sent.statusCode)) failed(span, sent.error ?? `HTTP ${sent.statusCode}`);
      return sent;
    });
    const succeeded = isSuccessStatus(outcome.statusCode);
    this.metrics.webhookAttempt(succeeded ? 'succeeded' : 'failed');
    const gone = outcome.statusCode === 410;
    const retryInMilliseconds = succeeded || gone ? null : this.retryDelay(delivery.attemptCount);
    const attempt = {
      ...outcome,
      error: outcome.error ?? (succeeded ? null : `HTTP ${outcome.statusCode}${gone ? ': endpoint disabled' : ''}`),
      succeeded,
      attemptedAt,
      retryInMilliseconds,
    };
    if (gone) {
      await this.unitOfWork.run(async (tx) => {
        await this.endpoints.disableAsGone(tx, tenant, endpoint.id);
        await this.deliveries.recordAttempts(tx, [{ delivery, attempt }]);
      });
    } else {
      // With the others that finished meanwhile, in one statement: no transaction to open around it.
      await this.attempts.add({ delivery, attempt });
    }
    // A retry due before the next poll gets a wake-up of its own.
    if (retryInMilliseconds !== null && retryInMilliseconds < POLL_INTERVAL_MILLISECONDS) {
      setTimeout(() => this.wake(), retryInMilliseconds + 5).unref();
    }
  }

  /** Delay before the next attempt after `previousAttempts` + 1 failures, or null when the schedule is spent. */
  private retryDelay(previousAttempts: number): number | null {
    const schedule = this.config.webhookRetryScheduleMilliseconds;
    const base = schedule[previousAttempts];
    if (base === undefined) return null;
    return Math.round(base * (1 - JITTER + Math.random() * 2 * JITTER));
  }
}
