import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { MerchantsService } from '../auth/merchants.service';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { BackgroundLoop } from '../database/background-loop';
import { UnitOfWork } from '../database/unit-of-work';
import { overageGibibytesRoundedUp } from './overage-amount';
import { monthEnd } from './plans';
import { StripeMeter } from './stripe-meter';
import { UsageStatementEntity } from './usage-statement.entity';
import { UsageStatementsRepository } from './usage-statements.repository';

/** Statements reported per round. */
const REPORT_BATCH = 20;
/** How long a leased statement waits before another reporter may take it (its reporter died mid-report). */
const LEASE_MILLISECONDS = 5 * 60 * 1000;
const POLL_INTERVAL_MILLISECONDS = 60 * 1000;
const FIRST_POLL_DELAY_MILLISECONDS = 60 * 1000;
/** A round that fails as a whole (the database away) is retried at most this far apart. */
const MAXIMUM_BACKOFF_MILLISECONDS = 10 * 60 * 1000;
/** Longest report_error kept. */
const ERROR_MAX_LENGTH = 500;

export interface ReportRound {
  reported: number;
  failed: number;
}

/**
 * Reports each live statement with an amount to Stripe Billing (DESIGN §17), when
 * STRIPE_SECRET_KEY is set: one meter event per statement, its identifier the statement id
 * (Stripe refuses a second event with it, so a retry or a second reporter never bills twice),
 * retried on WEBHOOK_RETRY_SCHEDULE like a webhook, the outcome on the statement (`reported_at`,
 * `report_error`). Every instance polls; each due statement is leased to one of them.
 */
@Injectable()
export class StatementReporter implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(StatementReporter.name);
  private readonly meter: StripeMeter | null;
  private readonly loop: BackgroundLoop<ReportRound>;

  constructor(
    private readonly statements: UsageStatementsRepository,
    private readonly merchants: MerchantsService,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {
    const stripe = config.stripe;
    this.meter = stripe ? new StripeMeter(stripe.secretKey, stripe.apiUrl) : null;
    this.loop = new BackgroundLoop({
      name: 'Reporting statements to Stripe',
      intervalMilliseconds: POLL_INTERVAL_MILLISECONDS,
      firstDelayMilliseconds: FIRST_POLL_DELAY_MILLISECONDS,
      maximumBackoffMilliseconds: MAXIMUM_BACKOFF_MILLISECONDS,
      pass: () => this.reportRound(),
      logger: this.logger,
    });
  }

  onApplicationBootstrap(): void {
    if (this.meter) this.loop.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  /** Reports the statements due now (what the schedule runs; tests and operators call it). A round already going is joined. */
  reportDue(): Promise<ReportRound> {
    return this.loop.run();
  }

  private async reportRound(): Promise<ReportRound> {
    const round: ReportRound = { reported: 0, failed: 0 };
    if (!this.meter) return round;
    const now = this.clock.now();
    const due = await this.unitOfWork.run((tx) => this.statements.leaseDueReports(tx, now, new Date(now.getTime() + LEASE_MILLISECONDS), REPORT_BATCH));
    for (const statement of due) {
      if (await this.report(this.meter, statement)) round.reported += 1;
      else round.failed += 1;
    }
    return round;
  }

  private async report(meter: StripeMeter, statement: UsageStatementEntity): Promise<boolean> {
    const stripe = this.config.stripe;
    const customer = (await this.merchants.termsFor(this.unitOfWork.pool, statement.merchant_id)).stripeCustomerId;
    let error: string | null = null;
    if (!stripe) error = 'STRIPE_SECRET_KEY is not set';
    else if (customer === null) error = 'The merchant has no stripe_customer_id (PATCH /admin/v1/merchants/{id})';
    else {
      try {
        await meter.send({
          eventName: stripe.meterEventName,
          stripeCustomerId: customer,
          value: overageGibibytesRoundedUp(statement.overage_bytes),
          identifier: statement.id,
          timestamp: Math.floor(monthEnd(statement.month).getTime() / 1000) - 1,
        });
      } catch (failure) {
        error = (failure instanceof Error ? failure.message : String(failure)).slice(0, ERROR_MAX_LENGTH);
      }
    }
    const now = this.clock.now();
    const schedule = this.config.webhookRetryScheduleMilliseconds;
    // A missing customer waits for the operator like any failure: setting it makes the next attempt succeed.
    const delay = schedule[statement.report_attempts];
    const nextAttemptAt = error === null || delay === undefined ? null : new Date(now.getTime() + delay);
    await this.unitOfWork.run((tx) => this.statements.recordReport(tx, statement, { reportedAt: error === null ? now : null, error, nextAttemptAt }));
    if (error !== null) this.logger.warn({ statement: statement.id, attempt: statement.report_attempts + 1, retry: nextAttemptAt?.toISOString() ?? null }, `Reporting statement ${statement.id} to Stripe failed: ${error}`);
    return error === null;
  }
}
