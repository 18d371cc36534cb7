import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { isValidId } from '../ids/id';
import type { FulfillmentConfigRequestDto } from './dto/product-request.dto';
import type { EntitlementType, FulfillmentWithFiles, LicenseConfig } from './product.entity';

/** The product a grant is made from, before defaults are applied. */
export interface TypeFieldsInput {
  entitlement_type: EntitlementType;
  /** undefined = not sent; on PATCH the current value is kept when the type still uses it. */
  access_duration_days?: number | null;
  usage_limit?: number | null;
}

export interface TypeFields {
  access_duration_days: number | null;
  usage_limit: number | null;
}

/** Which type needs which field: required (≥ 1) for that type, absent or null for the others. */
const TYPE_FIELDS = [
  { field: 'access_duration_days', type: 'time_limited' },
  { field: 'usage_limit', type: 'usage_limited' },
] as const;

/**
 * access_duration_days is required iff time_limited, usage_limit iff usage_limited. A value sent
 * for another type is refused (400), not silently dropped; on PATCH, a value kept from before is
 * cleared when the type changes away from the one that uses it.
 */
export function resolveTypeFields(input: TypeFieldsInput, current?: TypeFields): TypeFields {
  const result: TypeFields = { access_duration_days: null, usage_limit: null };
  for (const { field, type } of TYPE_FIELDS) {
    const sent = input[field];
    const applies = input.entitlement_type === type;
    const value = sent !== undefined ? sent : applies ? (current?.[field] ?? null) : null;
    if (applies && value === null) {
      throw new ApiError(ErrorCode.MISSING_REQUIRED_FIELD, `Missing required field '${field}': it is required (≥ 1) for ${type} products`, field);
    }
    if (!applies && value !== null) {
      throw new ApiError(
        ErrorCode.INVALID_PARAMETER,
        `Invalid '${field}': it applies only to ${type} products, not ${input.entitlement_type}; omit it or send null`,
        field,
      );
    }
    result[field] = value;
  }
  return result;
}

export const DEFAULT_FULFILLMENT_CONFIG: FulfillmentWithFiles = {
  delivery_method: 'FILE',
  file_ids: [],
  access_url: null,
  access_instructions: null,
};

function refuseField(field: string, method: string): never {
  throw new ApiError(
    ErrorCode.INVALID_PARAMETER,
    `Invalid 'fulfillment_config.${field}': it does not apply to delivery_method ${method}; omit it or send null`,
    `fulfillment_config.${field}`,
  );
}

/** An absolute https URL (the WHATWG parser refuses an https URL without a host). */
function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The stored config for a request's fulfillment_config: only the selected method's fields, checked.
 * File ids are checked for shape here; that they are this tenant's files is the service's query.
 */
export function normalizeFulfillmentConfig(input: FulfillmentConfigRequestDto): FulfillmentWithFiles {
  const method = input.delivery_method;
  const fileIds = input.file_ids ?? [];
  const accessUrl = input.access_url ?? null;
  const instructions = input.access_instructions ?? null;
  if (method !== 'FILE' && fileIds.length > 0) refuseField('file_ids', method);
  if (method !== 'URL' && accessUrl !== null) refuseField('access_url', method);
  if (method !== 'INSTRUCTIONS' && instructions !== null) refuseField('access_instructions', method);

  if (method === 'FILE') {
    const malformed = fileIds.find((fileId) => !isValidId('file', fileId));
    if (malformed !== undefined) {
      throw new ApiError(ErrorCode.INVALID_PARAMETER, `Invalid 'fulfillment_config.file_ids': '${malformed}' is not a file id`, 'fulfillment_config.file_ids');
    }
    return { delivery_method: method, file_ids: [...new Set(fileIds)], access_url: null, access_instructions: null };
  }
  if (method === 'URL') {
    if (accessUrl === null) {
      throw new ApiError(ErrorCode.MISSING_REQUIRED_FIELD, "Missing required field 'fulfillment_config.access_url': URL delivery needs an https URL", 'fulfillment_config.access_url');
    }
    if (!isHttpsUrl(accessUrl)) {
      throw new ApiError(ErrorCode.INVALID_PARAMETER, "Invalid 'fulfillment_config.access_url': it must be an absolute https:// URL", 'fulfillment_config.access_url');
    }
    return { delivery_method: method, file_ids: [], access_url: accessUrl, access_instructions: null };
  }
  if (instructions === null) {
    throw new ApiError(
      ErrorCode.MISSING_REQUIRED_FIELD,
      "Missing required field 'fulfillment_config.access_instructions': INSTRUCTIONS delivery needs the text to show",
      'fulfillment_config.access_instructions',
    );
  }
  if (instructions.trim() === '') {
    throw new ApiError(ErrorCode.INVALID_PARAMETER, "Invalid 'fulfillment_config.access_instructions': it must not be empty", 'fulfillment_config.access_instructions');
  }
  return { delivery_method: method, file_ids: [], access_url: null, access_instructions: instructions };
}

/** The stored license config of a request's `license` (absent or null: no keys; an absent field is null). */
export function licenseConfigOf(input: { activation_limit?: number | null; activation_ttl_seconds?: number | null } | null | undefined): LicenseConfig | null {
  if (!input) return null;
  return { activation_limit: input.activation_limit ?? null, activation_ttl_seconds: input.activation_ttl_seconds ?? null };
}
