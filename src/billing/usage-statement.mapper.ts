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

/** RFC 4180: quoted when it holds a comma, quote or line break; a leading =, +, - or @ is prefixed with ' so spreadsheets don't run it. */
function csvField(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The statements as CSV with a header row, CRLF line ends (RFC 4180). */
export function statementsCsv(statements: readonly AdminUsageStatementResponseDto[]): string {
  const lines = [CSV_COLUMNS.join(','), ...statements.map((statement) => CSV_COLUMNS.map((column) => csvField(statement[column] as string | number | null)).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}
