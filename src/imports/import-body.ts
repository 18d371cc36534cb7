import { CsvError, parse } from 'csv-parse/sync';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { refuseUnstorableText } from '../validation/input-rules';
import { CsvBody } from '../validation/request-body';
import { IMPORT_COLUMNS } from './import-row-parser';

export const MAX_IMPORT_ROWS = 100_000;

function refuseRowCount(count: number): void {
  if (count < 1 || count > MAX_IMPORT_ROWS) {
    throw new ApiError(ErrorCode.INVALID_PARAMETER, `An import holds 1 to ${MAX_IMPORT_ROWS.toLocaleString('en-US')} rows; this one has ${count.toLocaleString('en-US')}`, 'rows');
  }
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

function rowsOfCsv(text: string): Record<string, string>[] {
  let rows: Record<string, string>[];
  try {
    rows = parse(text, { columns: checkedHeader, bom: true, skip_empty_lines: true }) as Record<string, string>[];
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof CsvError) throw new ApiError(ErrorCode.INVALID_PARAMETER, `The CSV body could not be read: ${error.message}`, 'rows');
    throw error;
  }
  return rows;
}

const TEXT_FIELDS = ['customer_id', 'store_customer_id', 'product_id', 'store_product_id', 'expires_at', 'store_order_id'];

/**
 * JSON rows are typed, as the document says: each an object whose known fields have their JSON
 * type (text ids and timestamps, an integer usage_limit ≥ 1, an object metadata). A mistyped row
 * refuses the request; values (an unknown product, a past date) are still checked row by row.
 */
function refuseMistypedRows(rows: unknown[]): void {
  for (const [index, row] of rows.entries()) {
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
}

/**
 * The rows of POST /v1/entitlement-imports: a text/csv body with a header row (one object of cells
 * per data row), or JSON `{rows: [...]}`. Only the shape is checked here; each row's values are
 * checked when it is processed, and a bad one fails alone with its row number.
 */
export function rowsOfImportBody(body: unknown): unknown[] {
  let rows: unknown[];
  if (body instanceof CsvBody) {
    rows = rowsOfCsv(body.csv);
  } else {
    if (body === undefined || body === null) throw new ApiError(ErrorCode.MISSING_REQUIRED_FIELD, "Send a CSV body (text/csv) or JSON {\"rows\": [...]}", 'rows');
    const fields = body as Record<string, unknown>;
    const unknown = Object.keys(fields).find((name) => name !== 'rows');
    if (unknown !== undefined) throw new ApiError(ErrorCode.INVALID_PARAMETER, `Unknown field '${unknown}'; the JSON body is {"rows": [...]}`, unknown);
    if (fields.rows === undefined) throw new ApiError(ErrorCode.MISSING_REQUIRED_FIELD, "The JSON body needs 'rows'", 'rows');
    if (!Array.isArray(fields.rows)) throw new ApiError(ErrorCode.INVALID_PARAMETER, "'rows' must be an array of row objects", 'rows');
    rows = fields.rows as unknown[];
    refuseRowCount(rows.length);
    refuseMistypedRows(rows);
  }
  refuseRowCount(rows.length);
  refuseUnstorableText(rows);
  return rows;
}
