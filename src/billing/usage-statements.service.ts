import { Injectable, Logger } from '@nestjs/common';
import { MerchantsService, termsOf } from '../auth/merchants.service';
import type { MerchantEntity } from '../auth/merchant.entity';
import { Clock } from '../clock/clock';
import { AppConfig } from '../config/app-config';
import { API_MODES, Tenant } from '../database/tenant';
import type { Transaction } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import { PageResult } from '../envelope/page-result';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { generateId, isValidId } from '../ids/id';
import { toPageRequest, toPageResult } from '../pagination/page';
import { PaginationQueryDto } from '../pagination/pagination-query.dto';
import { billingTermsOf, overageBytesOf } from './billing-terms';
import { AdminUsageStatementResponseDto, StatementsClosedResponseDto, UsageStatementResponseDto } from './dto/usage-statement-response.dto';
import { amountAsNumber, overageAmount } from './overage-amount';
import { billingMonth, MONTH_PATTERN, monthEnd } from './plans';
import { UsageRepository } from './usage.repository';
import { toAdminStatementResponse, toStatementResponse } from './usage-statement.mapper';
import { NewUsageStatement, UsageStatementsRepository } from './usage-statements.repository';

/** Merchants per close transaction: each is short, and a crash keeps the batches already written. */
export const CLOSE_BATCH_MERCHANTS = 200;
/**
 * pg_advisory_xact_lock key of the month's close ("stmt" in ASCII): one instance closes at a
 * time; another waits for the batch and then finds its statements written.
 */
export const CLOSE_LOCK_ID = 0x73746d74;

/**
 * Usage statements (DESIGN §17): one per merchant and mode for each ended month, written once and
 * never changed after (but for the outcome of its Stripe report), statement.created published in
 * the transaction that writes it.
 */
@Injectable()
export class UsageStatementsService {
  private readonly logger = new Logger(UsageStatementsService.name);

  constructor(
    private readonly statements: UsageStatementsRepository,
    private readonly usage: UsageRepository,
    private readonly merchants: MerchantsService,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /**
   * Writes the statements of an ended month that are not written yet, every merchant created
   * before its end, in batches of CLOSE_BATCH_MERCHANTS, each one transaction under the close's
   * advisory lock. Idempotent: a second close, concurrent or after a crash, writes only what is
   * missing (nothing, once one finished). The current or a future month is refused (400).
   */
  async closeMonth(month: string): Promise<StatementsClosedResponseDto> {
    this.assertEnded(month);
    const end = monthEnd(month);
    let created = 0;
    let afterId: string | null = null;
    for (;;) {
      const batch: { created: number; lastId: string | null } = await this.unitOfWork.run(async (tx) => {
        await tx.manager.query('SELECT pg_advisory_xact_lock($1)', [CLOSE_LOCK_ID]);
        const merchants = await this.merchants.listPage(tx, afterId, CLOSE_BATCH_MERCHANTS, end);
        return { created: await this.closeBatch(tx, month, merchants), lastId: merchants.at(-1)?.id ?? null };
      });
      created += batch.created;
      if (batch.lastId === null) break;
      afterId = batch.lastId;
    }
    if (created > 0) this.logger.log({ month, created }, `Closed ${month}: ${created} usage statements written`);
    return { month, created };
  }

  async list(tenant: Tenant, query: PaginationQueryDto): Promise<PageResult<UsageStatementResponseDto>> {
    const page = toPageRequest(query);
    const { rows, total } = await this.statements.list(this.unitOfWork.pool, tenant, page);
    return toPageResult(rows, page, (row) => row.created_at, toStatementResponse, total);
  }

  async get(tenant: Tenant, statementId: string): Promise<UsageStatementResponseDto> {
    const statement = isValidId('stmt', statementId) ? await this.statements.findById(this.unitOfWork.pool, tenant, statementId) : null;
    if (!statement) throw new ApiError(ErrorCode.STATEMENT_NOT_FOUND, `No usage statement with id '${statementId}'`);
    return toStatementResponse(statement);
  }

  /** Every merchant's live statements of a month: what the operator bills (JSON, CSV, the CLI's export). */
  async listMonth(month: string): Promise<AdminUsageStatementResponseDto[]> {
    if (!MONTH_PATTERN.test(month)) throw new ApiError(ErrorCode.INVALID_PARAMETER, `month '${month}' is not a month as YYYY-MM`, 'month');
    return (await this.statements.listMonth(this.unitOfWork.pool, month, 'live')).map(toAdminStatementResponse);
  }

  private assertEnded(month: string): void {
    if (!MONTH_PATTERN.test(month)) throw new ApiError(ErrorCode.INVALID_PARAMETER, `month '${month}' is not a month as YYYY-MM`, 'month');
    const current = billingMonth(this.clock.now());
    if (month >= current) throw new ApiError(ErrorCode.INVALID_PARAMETER, `month ${month} has not ended: only months before ${current} can be closed`, 'month');
  }

  /** One batch: each merchant's statement per mode from its month's meter and its terms now, then their events. */
  private async closeBatch(tx: Transaction, month: string, merchants: readonly MerchantEntity[]): Promise<number> {
    if (merchants.length === 0) return 0;
    const meters = await this.usage.findBandwidthOfMerchants(tx, merchants.map((merchant) => merchant.id), month);
    const meterOf = new Map(meters.map((meter) => [`${meter.merchant_id}:${meter.mode}`, meter]));
    const now = this.clock.now();
    const currency = this.config.overageCurrency;
    const rows: NewUsageStatement[] = merchants.flatMap((merchant) =>
      API_MODES.map((mode) => {
        const terms = billingTermsOf(termsOf(merchant), this.config.overagePrices);
        const meter = meterOf.get(`${merchant.id}:${mode}`);
        const bandwidthBytes = meter?.bandwidth_bytes ?? 0;
        // From the month's total against the terms now, as GET /v1/usage showed it.
        const overageBytes = overageBytesOf(bandwidthBytes, terms.limits.bandwidthBytes, terms.limits.bandwidthHardCap);
        const amount = terms.overagePricePerGib === null ? 0 : amountAsNumber(overageAmount(overageBytes, terms.overagePricePerGib));
        return {
          id: generateId('stmt'),
          merchant_id: merchant.id,
          mode,
          month,
          plan: terms.plan,
          included_bandwidth_bytes: terms.limits.bandwidthBytes,
          bandwidth_bytes: bandwidthBytes,
          overage_bytes: overageBytes,
          price_per_gib: terms.overagePricePerGib,
          currency,
          amount,
          created_at: now,
          // Live statements with an amount are reported to Stripe Billing (when it is configured).
          next_report_at: mode === 'live' && amount > 0 ? now : null,
        };
      }),
    );
    const written = await this.statements.insertNew(tx, rows);
    for (const statement of written) {
      await tx.publish('statement.created', { merchantId: statement.merchant_id, mode: statement.mode }, { ...toStatementResponse(statement) });
    }
    return written.length;
  }
}
