import { CsvError, parse } from 'csv-parse';
import { Readable } from 'node:stream';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { refuseUnstorableText } from '../validation/input-rules';
import { CsvBody } from '../validation/request-body';
import { ID_MAX_LENGTH } from '../validation/input-bounds';
import { IMPORT_COLUMNS } from './import-row-parser';

export const MAX_IMPORT_ROWS = 100_000;

/** Rows held at once while an import is read and stored: the body is parsed and written a batch at a time. */
export const IMPORT_BATCH_ROWS = 1_000;

function tooManyRows(count: number): ApiError {
  return new ApiError(
    ErrorCode.INVALID_PARAMETER,
    `An import holds 1 to ${MAX_IMPORT_ROWS.toLocaleString('en-US')} rows; this one has ${count.toLocaleString('en-US')}`,
    'rows',
  );
}

function noRows(): ApiError {
  return new ApiError(ErrorCode.INVALID_PARAMETER, `An import holds 1 to ${MAX_IMPORT_ROWS.toLocaleString('en-US')} rows; this one has none`, 'rows');
}

/** The header row: known columns, each once, naming a customer and a product. */
function checkedHeader(header: string[]): string[] {
  const columns = header.map((cell) => cell.trim());
  for (const [index, column] of columns.entries()) {
    if (!(IMPORT_COLUMNS as readonly string[]).includes(column)) {
      throw new ApiError(ErrorCode.INVALID_PARAMETER, `Unknown CSV column '${column}'; columns are ${IMPORT_COLUMNS.join(', ')}`, column || 'rows');
    }
    if (columns.indexOf(column) !== index) throw new ApiError(ErrorCode.INVALID_PARAMETER, `The CSV column '${column}' appears twice`, column);
  }
  if (!columns.includes('customer_id') && !columns.includes('store_customer_id')) {
    throw new ApiError(ErrorCode.MISSING_REQUIRED_FIELD, "The CSV header needs a 'customer_id' or 'store_customer_id' column", 'store_customer_id');
  }
  if (!columns.includes('product_id') && !columns.includes('store_product_id')) {
    throw new ApiError(ErrorCode.MISSING_REQUIRED_FIELD, "The CSV header needs a 'product_id' or 'store_product_id' column", 'store_product_id');
  }
  return columns;
}

/** Characters of CSV handed to the parser at a time. */
const CSV_SLICE_CHARACTERS = 64 * 1024;

function* slicesOf(text: string): Generator<string> {
  for (let start = 0; start < text.length; start += CSV_SLICE_CHARACTERS) yield text.slice(start, start + CSV_SLICE_CHARACTERS);
}

/** The CSV's data rows, parsed as they are read (one object of cells per row, by the header). */
async function* rowsOfCsv(text: string): AsyncGenerator<unknown> {
  try {
    // Fed in slices: given the whole text at once, the parser would turn all of it into records
    // before the first is read; a slice at a time, it parses only as fast as rows are stored.
    const parser = Readable.from(slicesOf(text)).pipe(parse({ columns: checkedHeader, bom: true, skip_empty_lines: true }));
    yield* parser as AsyncIterable<Record<string, string>>;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof CsvError) throw new ApiError(ErrorCode.INVALID_PARAMETER, `The CSV body could not be read: ${error.message}`, 'rows');
    throw error;
  }
}

const TEXT_FIELDS = ['customer_id', 'store_customer_id', 'product_id', 'store_product_id', 'expires_at', 'store_order_id'];

/**
 * JSON rows are typed, as the document says: each an object whose known fields have their JSON
 * type (text ids and timestamps, an integer usage_limit ≥ 1, an object metadata). A mistyped row
 * refuses the request; values (an unknown product, a past date) are still checked row by row.
 */
function refuseMistypedRow(row: unknown, index: number): void {
  const where = `rows[${index}]`;
  if (typeof row !== 'object' || row === null || Array.isArray(row)) {
    throw new ApiError(ErrorCode.INVALID_PARAMETER, `${where} must be an object of columns (row ${index + 1})`, 'rows');
  }
  const fields = row as Record<string, unknown>;
  for (const name of TEXT_FIELDS) {
    if (fields[name] !== undefined && typeof fields[name] !== 'string') throw new ApiError(ErrorCode.INVALID_PARAMETER, `${where}.${name} must be a string`, 'rows');
  }
  const limit = fields.usage_limit;
  if (limit !== undefined && (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1)) {
    throw new ApiError(ErrorCode.INVALID_PARAMETER, `${where}.usage_limit must be an integer ≥ 1`, 'rows');
  }
  const metadata = fields.metadata;
  if (metadata !== undefined && (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))) {
    throw new ApiError(ErrorCode.INVALID_PARAMETER, `${where}.metadata must be a JSON object`, 'rows');
  }
}

/** The rows of a JSON body `{rows: [...]}`, each checked for its types in order. */
async function* rowsOfJson(body: unknown): AsyncGenerator<unknown> {
  if (body === undefined || body === null) throw new ApiError(ErrorCode.MISSING_REQUIRED_FIELD, "Send a CSV body (text/csv) or JSON {\"rows\": [...]}", 'rows');
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).find((name) => name !== 'rows' && name !== 'test_clock');
  if (unknown !== undefined) throw new ApiError(ErrorCode.INVALID_PARAMETER, `Unknown field '${unknown}'; the JSON body is {"rows": [...], "test_clock"?: "clock_…"}`, unknown);
  if (fields.rows === undefined) throw new ApiError(ErrorCode.MISSING_REQUIRED_FIELD, "The JSON body needs 'rows'", 'rows');
  if (!Array.isArray(fields.rows)) throw new ApiError(ErrorCode.INVALID_PARAMETER, "'rows' must be an array of row objects", 'rows');
  if (fields.rows.length > MAX_IMPORT_ROWS) throw tooManyRows(fields.rows.length);
  for (const [index, row] of (fields.rows as unknown[]).entries()) {
    refuseMistypedRow(row, index);
    yield row;
  }
}

/**
 * The rows of POST /v1/entitlement-imports, IMPORT_BATCH_ROWS at a time and in order: a text/csv
 * body with a header row (parsed as it is read, one object of cells per data row), or JSON
 * `{rows: [...]}`. Only the shape is checked here, row by row as it comes, so a refusal names the
 * first bad row; each row's values are checked when it is processed, and a bad one fails alone.
 */
export async function* importRowBatches(body: unknown): AsyncGenerator<unknown[]> {
  const rows = body instanceof CsvBody ? rowsOfCsv(body.csv) : rowsOfJson(body);
  let batch: unknown[] = [];
  let count = 0;
  for await (const row of rows) {
    if (count === MAX_IMPORT_ROWS) {
      // Counted to the end (holding none of them), so the refusal says how many were sent.
      let sent = count + 1;
      for await (const _extra of rows) sent += 1;
      throw tooManyRows(sent);
    }
    refuseUnstorableText({ [`rows[${count}]`]: row });
    count += 1;
    batch.push(row);
    if (batch.length === IMPORT_BATCH_ROWS) {
      yield batch;
      batch = [];
    }
  }
  if (count === 0) throw noRows();
  if (batch.length > 0) yield batch;
}

/**
 * The import's own test clock (DESIGN §14), which binds the customers its rows create: `test_clock`
 * of a JSON body (a CSV body names none: import bound customers as JSON). Null when none is named.
 */
export function importTestClockOf(body: unknown): string | null {
  if (body instanceof CsvBody || typeof body !== 'object' || body === null) return null;
  const value = (body as Record<string, unknown>).test_clock;
  if (value === undefined) return null;
  refuseUnstorableText({ test_clock: value });
  if (typeof value !== 'string' || value.length === 0 || value.length > ID_MAX_LENGTH) {
    throw new ApiError(ErrorCode.INVALID_PARAMETER, "Invalid 'test_clock': a test clock id (clock_…)", 'test_clock');
  }
  return value;
}
