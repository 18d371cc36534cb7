import type { Reference } from '../entitlements/entitlement-check.query';
import { ErrorCode } from '../errors/error-code.enum';
import { isFutureExpiry, PAST_EXPIRY_MESSAGE } from '../entitlements/entitlement-bounds';
import { ApiError } from '../errors/api-error';
import { exactlyOne } from '../validation/exactly-one';
import { STORE_ID_MAX_LENGTH, USAGE_LIMIT_MAX } from '../validation/input-bounds';
import { instantOf } from '../validation/iso-timestamp';
import { METADATA_MAX_BYTES } from '../validation/metadata-object';

/** The columns (CSV header) or keys (JSON rows) an import row may have (DESIGN §10). */
export const IMPORT_COLUMNS = ['customer_id', 'store_customer_id', 'product_id', 'store_product_id', 'expires_at', 'usage_limit', 'store_order_id', 'metadata'] as const;

/** A row that can be granted, once its customer and product are found. */
export interface ImportGrantRow {
  customer: Reference;
  product: Reference;
  expiresAt: Date | null;
  usageLimit: number | null;
  storeOrderId: string | null;
  metadata: Record<string, unknown> | undefined;
}

/** The codes a failed row can carry, as the API would answer for the same grant (the document's enum). */
export const IMPORT_ROW_ERROR_CODES = [
  ErrorCode.MISSING_REQUIRED_FIELD,
  ErrorCode.INVALID_PARAMETER,
  ErrorCode.CUSTOMER_NOT_FOUND,
  ErrorCode.PRODUCT_NOT_FOUND,
  ErrorCode.PRODUCT_ARCHIVED,
  ErrorCode.TEST_CLOCK_MISMATCH,
] as const;
export type ImportRowErrorCode = (typeof IMPORT_ROW_ERROR_CODES)[number];

/** Why a row fails, as the import's errors list shows it. */
export interface ImportRowProblem {
  code: ImportRowErrorCode;
  message: string;
}

class RowProblem extends Error {
  constructor(
    readonly code: ImportRowErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const invalid = (message: string) => new RowProblem(ErrorCode.INVALID_PARAMETER, message);

/** A cell's text, or undefined when it is empty or absent (an empty cell is an absent value). */
function text(row: Record<string, unknown>, column: string): string | undefined {
  const value = row[column];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number' && (column === 'usage_limit' || column === 'customer_id' || column === 'store_customer_id' || column === 'store_order_id' || column === 'store_product_id')) {
    return String(value);
  }
  if (typeof value !== 'string') throw invalid(`'${column}' must be text`);
  return value;
}

function identifier(row: Record<string, unknown>, column: string): string | undefined {
  const value = text(row, column);
  if (value !== undefined && value.length > STORE_ID_MAX_LENGTH) throw invalid(`'${column}' must be at most ${STORE_ID_MAX_LENGTH} characters`);
  return value;
}

/** Exactly one of the two columns, by the API's own rule and words (validation/exactly-one.ts). */
function reference(row: Record<string, unknown>, idColumn: string, storeColumn: string): Reference {
  try {
    const named = exactlyOne({ [idColumn]: identifier(row, idColumn), [storeColumn]: identifier(row, storeColumn) });
    return named.field === idColumn ? { id: named.value } : { storeId: named.value };
  } catch (error) {
    if (error instanceof ApiError && error.code === ErrorCode.MISSING_REQUIRED_FIELD) throw new RowProblem(ErrorCode.MISSING_REQUIRED_FIELD, error.message);
    throw error;
  }
}

function expiresAt(row: Record<string, unknown>, now: Date): Date | null {
  const value = text(row, 'expires_at');
  if (value === undefined) return null;
  const instant = instantOf(value);
  if (!instant || !/^\d{4}-\d{2}-\d{2}T/.test(value)) throw invalid(`'expires_at' must be an ISO 8601 date-time, e.g. 2027-01-15T10:30:00Z`);
  // The import's now; a customer on a test clock is judged again at its clock's time (import-batch.processor.ts).
  if (!isFutureExpiry(instant, now)) throw invalid(PAST_EXPIRY_MESSAGE);
  return instant;
}

function usageLimit(row: Record<string, unknown>): number | null {
  const value = text(row, 'usage_limit');
  if (value === undefined) return null;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > USAGE_LIMIT_MAX) throw invalid(`'usage_limit' must be an integer from 1 to ${USAGE_LIMIT_MAX}`);
  return Number(value);
}

function metadata(row: Record<string, unknown>): Record<string, unknown> | undefined {
  const raw = row.metadata;
  if (raw === undefined || raw === null || raw === '') return undefined;
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw) as unknown;
    } catch {
      throw invalid(`'metadata' must be a JSON object written as text, e.g. {"plan":"legacy"}`);
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalid(`'metadata' must be a JSON object`);
  if (Buffer.byteLength(JSON.stringify(value), 'utf8') > METADATA_MAX_BYTES) throw invalid(`'metadata' must be at most ${METADATA_MAX_BYTES} bytes serialized`);
  return value as Record<string, unknown>;
}

/** A stored row (CSV cells or a JSON row) read as a grant, or the problem that fails it. */
export function parseImportRow(data: unknown, now: Date): ImportGrantRow | ImportRowProblem {
  try {
    if (data === null || typeof data !== 'object' || Array.isArray(data)) throw invalid('A row must be an object of column values');
    const row = data as Record<string, unknown>;
    const unknown = Object.keys(row).find((column) => !(IMPORT_COLUMNS as readonly string[]).includes(column));
    if (unknown !== undefined) throw invalid(`Unknown column '${unknown}'; columns are ${IMPORT_COLUMNS.join(', ')}`);
    const storeOrderId = identifier(row, 'store_order_id') ?? null;
    return {
      customer: reference(row, 'customer_id', 'store_customer_id'),
      product: reference(row, 'product_id', 'store_product_id'),
      expiresAt: expiresAt(row, now),
      usageLimit: usageLimit(row),
      storeOrderId,
      metadata: metadata(row),
    };
  } catch (error) {
    if (error instanceof RowProblem) return { code: error.code, message: error.message };
    throw error;
  }
}

export function isRowProblem(parsed: ImportGrantRow | ImportRowProblem): parsed is ImportRowProblem {
  return 'code' in parsed;
}
