import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Clock } from '../clock/clock';
import { BackgroundLoop } from '../database/background-loop';
import { previousMonth } from './plans';
import { UsageStatementsService } from './usage-statements.service';

/**
 * The first check waits, so short-lived processes (CLI, test apps, whose clocks may be moved
 * months ahead) never run one; the month is still closed within the hour after it ends.
 */
const FIRST_CHECK_DELAY_MILLISECONDS = 10 * 60 * 1000;
/** Months end at midnight UTC; checking hourly writes the statements within the hour. */
const CHECK_INTERVAL_MILLISECONDS = 60 * 60 * 1000;

/**
 * Closes the month that ended, on every instance's schedule: the close itself takes one advisory
 * lock per batch and skips written statements, so instances that run it together write each
 * statement once, and one that crashed mid-run is completed by the next check.
 */
@Injectable()
export class MonthCloseJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly loop: BackgroundLoop<void>;
  /** The last month this instance saw closed: later checks of the same month cost nothing. */
  private closedMonth: string | null = null;

  constructor(
    private readonly statements: UsageStatementsService,
    private readonly clock: Clock,
  ) {
    // A failed close is retried at the next hourly check (the back-off never exceeds the interval).
    this.loop = new BackgroundLoop({
      name: 'Closing the month',
      intervalMilliseconds: CHECK_INTERVAL_MILLISECONDS,
      firstDelayMilliseconds: FIRST_CHECK_DELAY_MILLISECONDS,
      maximumBackoffMilliseconds: CHECK_INTERVAL_MILLISECONDS,
      pass: () => this.closeEndedMonth(),
      logger: new Logger(MonthCloseJob.name),
    });
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  /** Closes the previous month unless this instance already did (what the schedule runs). */
  async closeEndedMonth(): Promise<void> {
    const month = previousMonth(this.clock.now());
    if (month === this.closedMonth) return;
    await this.statements.closeMonth(month);
    this.closedMonth = month;
  }
}
