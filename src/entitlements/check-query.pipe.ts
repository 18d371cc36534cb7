import { Injectable, PipeTransform } from '@nestjs/common';
import { isIn, isString, maxLength } from 'class-validator';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { refusePrototypeKeys, refuseUnstorableText } from '../validation/input-rules';
import { nearestKnownField } from '../validation/validation-exception.factory';
import { CheckEntitlementQueryDto } from './dto/entitlement-query.dto';
import { STORE_ID_MAX_LENGTH } from '../validation/input-bounds';

const ID_FIELDS = ['customer_id', 'store_customer_id', 'product_id', 'store_product_id'] as const;
const INCLUDE_TOKEN_FIELD = 'include_token';
const INCLUDE_TOKEN_VALUES = ['true', 'false'];
const KNOWN_FIELDS = new Set<string>([...ID_FIELDS, INCLUDE_TOKEN_FIELD]);
/** Stands for the DTO when suggesting the known field nearest to an unknown one. */
const DTO_SAMPLE = new CheckEntitlementQueryDto();

function invalid(field: string, message: string): ApiError {
  return new ApiError(ErrorCode.INVALID_PARAMETER, `Invalid '${field}': ${message}`, field);
}

/**
 * The check's query parameters as the global validation pipe would read CheckEntitlementQueryDto,
 * with the same answers (the unit test compares the two), without class-transformer and
 * class-validator, which cost the check more than its database query. Order of refusals as
 * there: a prototype key, then the first unknown field, then each field in the DTO's order, then
 * text PostgreSQL cannot store. `raw` is the parsed query string: each value a string, or an
 * array of strings when the parameter repeats.
 */
export function parseCheckQuery(raw: unknown): CheckEntitlementQueryDto {
  const input = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  refusePrototypeKeys(input);
  for (const field of Object.keys(input)) {
    if (KNOWN_FIELDS.has(field)) continue;
    const suggestion = nearestKnownField(DTO_SAMPLE, field);
    throw new ApiError(ErrorCode.INVALID_PARAMETER, `Unknown field '${field}'${suggestion ? `; did you mean '${suggestion}'?` : ''}`, field);
  }
  const query: CheckEntitlementQueryDto = {};
  for (const field of ID_FIELDS) {
    const value = input[field];
    if (value === undefined || value === null) continue;
    if (!isString(value)) throw invalid(field, `${field} must be a string`);
    if (!maxLength(value, STORE_ID_MAX_LENGTH)) throw invalid(field, `${field} must be shorter than or equal to ${STORE_ID_MAX_LENGTH} characters`);
    query[field] = value;
  }
  const includeToken = input[INCLUDE_TOKEN_FIELD];
  if (includeToken !== undefined && includeToken !== null) {
    if (!isIn(includeToken, INCLUDE_TOKEN_VALUES)) throw invalid(INCLUDE_TOKEN_FIELD, 'include_token must be true or false');
    query.include_token = includeToken as 'true' | 'false';
  }
  refuseUnstorableText(input);
  return query;
}

/** `@Query(CheckQueryPipe)` on the check: see parseCheckQuery. */
@Injectable()
export class CheckQueryPipe implements PipeTransform<unknown, CheckEntitlementQueryDto> {
  transform(value: unknown): CheckEntitlementQueryDto {
    return parseCheckQuery(value);
  }
}
