import { csvLine } from '../envelope/csv';
import { AdminUsageStatementResponseDto, UsageStatementResponseDto } from './dto/usage-statement-response.dto';
import type { UsageStatementEntity } from './usage-statement.entity';

export function toStatementResponse(statement: UsageStatementEntity): UsageStatementResponseDto {
  return {
    id: statement.id,
    object: 'usage_statement',
    month: statement.month,
    mode: statement.mode,
    plan: statement.plan,
    included_bandwidth_bytes: statement.included_bandwidth_bytes,
    bandwidth_bytes: statement.bandwidth_bytes,
    overage_bytes: statement.overage_bytes,
    price_per_gib: statement.price_per_gib,
    currency: statement.currency,
    amount: statement.amount,
    created_at: statement.created_at.toISOString(),
    reported_at: statement.reported_at?.toISOString() ?? null,
    report_error: statement.report_error,
  };
}

export function toAdminStatementResponse(statement: UsageStatementEntity): AdminUsageStatementResponseDto {
  return { ...toStatementResponse(statement), merchant_id: statement.merchant_id };
}

/** The operator's CSV columns, in order. */
const CSV_COLUMNS = [
  'id',
  'merchant_id',
  'month',
  'mode',
  'plan',
  'included_bandwidth_bytes',
  'bandwidth_bytes',
  'overage_bytes',
  'price_per_gib',
  'currency',
  'amount',
  'created_at',
  'reported_at',
  'report_error',
] as const satisfies ReadonlyArray<keyof AdminUsageStatementResponseDto>;

/** The statements as CSV with a header row, CRLF line ends (RFC 4180, envelope/csv.ts). */
export function statementsCsv(statements: readonly AdminUsageStatementResponseDto[]): string {
  return [csvLine(CSV_COLUMNS), ...statements.map((statement) => csvLine(CSV_COLUMNS.map((column) => statement[column])))].join('');
}
