import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';

/** A record named by our id or by its id in the store: one of a request's pair of fields. */
export type IdReference = { id: string; storeId?: undefined } | { id?: undefined; storeId: string };

/** Present means a non-empty value: `?customer_id=` counts as absent. */
const present = (value: string | undefined | null): value is string => value !== undefined && value !== null && value !== '';

/**
 * Exactly one of an id pair (`product_id` / `store_product_id`). Neither and both are the same
 * mistake with one code, MISSING_REQUIRED_FIELD (DESIGN §5 names it so on the check), wherever a
 * pair is asked for, so a client handles it once.
 */
export function pickReference(id: string | undefined | null, storeId: string | undefined | null, names: [string, string]): IdReference {
  if (present(id) && present(storeId)) {
    throw new ApiError(ErrorCode.MISSING_REQUIRED_FIELD, `Pass exactly one of '${names[0]}' and '${names[1]}', not both`, names[1]);
  }
  if (present(id)) return { id };
  if (present(storeId)) return { storeId };
  throw new ApiError(ErrorCode.MISSING_REQUIRED_FIELD, `Pass one of '${names[0]}' or '${names[1]}'`, names[0]);
}
