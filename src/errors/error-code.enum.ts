/** The one error catalogue (DESIGN §4). Services throw these codes; only the catalogue decides status and type. */
export enum ErrorCode {
  INVALID_API_KEY = 'INVALID_API_KEY',
  INSUFFICIENT_SCOPE = 'INSUFFICIENT_SCOPE',
  RATE_LIMITED = 'RATE_LIMITED',
  MISSING_REQUIRED_FIELD = 'MISSING_REQUIRED_FIELD',
  INVALID_PARAMETER = 'INVALID_PARAMETER',
  INVALID_JSON = 'INVALID_JSON',
  FILTER_REQUIRED = 'FILTER_REQUIRED',
  PAYLOAD_TOO_LARGE = 'PAYLOAD_TOO_LARGE',
  FILE_TOO_LARGE = 'FILE_TOO_LARGE',
  STORAGE_LIMIT_REACHED = 'STORAGE_LIMIT_REACHED',
  BANDWIDTH_LIMIT_REACHED = 'BANDWIDTH_LIMIT_REACHED',
  ENTITLEMENT_NOT_FOUND = 'ENTITLEMENT_NOT_FOUND',
  PRODUCT_NOT_FOUND = 'PRODUCT_NOT_FOUND',
  CUSTOMER_NOT_FOUND = 'CUSTOMER_NOT_FOUND',
  FILE_NOT_FOUND = 'FILE_NOT_FOUND',
  WEBHOOK_ENDPOINT_NOT_FOUND = 'WEBHOOK_ENDPOINT_NOT_FOUND',
  EVENT_NOT_FOUND = 'EVENT_NOT_FOUND',
  STATEMENT_NOT_FOUND = 'STATEMENT_NOT_FOUND',
  MERCHANT_NOT_FOUND = 'MERCHANT_NOT_FOUND',
  API_KEY_NOT_FOUND = 'API_KEY_NOT_FOUND',
  NOT_FOUND = 'NOT_FOUND',
  ENTITLEMENT_NOT_ACTIVE = 'ENTITLEMENT_NOT_ACTIVE',
  UPLOAD_NOT_CONFIRMED = 'UPLOAD_NOT_CONFIRMED',
  UPLOAD_NOT_CONFIRMED_FOR_DOWNLOAD = 'UPLOAD_NOT_CONFIRMED_FOR_DOWNLOAD',
  FILE_ALREADY_CONFIRMED = 'FILE_ALREADY_CONFIRMED',
  INVALID_STATUS_TRANSITION = 'INVALID_STATUS_TRANSITION',
  IDEMPOTENCY_KEY_CONFLICT = 'IDEMPOTENCY_KEY_CONFLICT',
  PRODUCT_ARCHIVED = 'PRODUCT_ARCHIVED',
  DUPLICATE_STORE_ID = 'DUPLICATE_STORE_ID',
  ORDER_NOT_FOUND = 'ORDER_NOT_FOUND',
  GRANT_RULE_NOT_FOUND = 'GRANT_RULE_NOT_FOUND',
  ORDER_CUSTOMER_MISMATCH = 'ORDER_CUSTOMER_MISMATCH',
  MANAGED_BY_PARENT = 'MANAGED_BY_PARENT',
  SUBSCRIPTION_NOT_FOUND = 'SUBSCRIPTION_NOT_FOUND',
  SUBSCRIPTION_CONFLICT = 'SUBSCRIPTION_CONFLICT',
  IMPORT_NOT_FOUND = 'IMPORT_NOT_FOUND',
  TEST_MODE_ONLY = 'TEST_MODE_ONLY',
  TEST_CLOCK_NOT_FOUND = 'TEST_CLOCK_NOT_FOUND',
  TEST_CLOCK_MISMATCH = 'TEST_CLOCK_MISMATCH',
  INVALID_CREDENTIALS = 'INVALID_CREDENTIALS',
  INVALID_SESSION = 'INVALID_SESSION',
  CSRF_TOKEN_INVALID = 'CSRF_TOKEN_INVALID',
  SETUP_LINK_INVALID = 'SETUP_LINK_INVALID',
  DASHBOARD_USER_EXISTS = 'DASHBOARD_USER_EXISTS',
  FILE_IN_USE = 'FILE_IN_USE',
  DASHBOARD_USER_NOT_FOUND = 'DASHBOARD_USER_NOT_FOUND',
  LAST_DASHBOARD_USER = 'LAST_DASHBOARD_USER',
  LAST_OWNER = 'LAST_OWNER',
  LICENSE_KEY_NOT_FOUND = 'LICENSE_KEY_NOT_FOUND',
  ACTIVATION_NOT_FOUND = 'ACTIVATION_NOT_FOUND',
  ACTIVATION_LIMIT_REACHED = 'ACTIVATION_LIMIT_REACHED',
  INTERNAL_ERROR = 'INTERNAL_ERROR',
  SERVICE_UNAVAILABLE = 'SERVICE_UNAVAILABLE',
}

export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'billing_error'
  | 'permission_error'
  | 'not_found_error'
  | 'conflict_error'
  | 'rate_limit_error'
  | 'api_error';

export interface CatalogueEntry {
  status: number;
  /** The code rendered in the body; differs from the enum key only where one code has two statuses. */
  renderedCode: string;
  description: string;
}

const entry = (status: number, description: string, renderedCode?: string) => ({ status, description, renderedCode });

const CATALOGUE_SOURCE: Record<ErrorCode, { status: number; description: string; renderedCode?: string }> = {
  [ErrorCode.INVALID_API_KEY]: entry(401, 'Missing, malformed, unknown or revoked API key'),
  [ErrorCode.INSUFFICIENT_SCOPE]: entry(403, 'The API key lacks the scope this route needs'),
  [ErrorCode.RATE_LIMITED]: entry(429, 'Too many requests; retry after Retry-After seconds'),
  [ErrorCode.MISSING_REQUIRED_FIELD]: entry(400, 'A required field or query parameter is absent, or more than one of the fields that name one thing is given (customer_id and store_customer_id)'),
  [ErrorCode.INVALID_PARAMETER]: entry(400, 'A present field is invalid or unknown'),
  [ErrorCode.INVALID_JSON]: entry(400, 'The body is not valid JSON'),
  [ErrorCode.FILTER_REQUIRED]: entry(400, 'The list needs at least one filter'),
  [ErrorCode.PAYLOAD_TOO_LARGE]: entry(413, "The body is larger than the route's limit: 1 MiB, or 20 MiB for an import"),
  [ErrorCode.FILE_TOO_LARGE]: entry(400, "The declared size is over the plan's max file size"),
  [ErrorCode.STORAGE_LIMIT_REACHED]: entry(402, "The upload would pass the plan's storage"),
  [ErrorCode.BANDWIDTH_LIMIT_REACHED]: entry(402, "The download would pass the free plan's monthly bandwidth"),
  [ErrorCode.ENTITLEMENT_NOT_FOUND]: entry(404, 'No such entitlement'),
  [ErrorCode.PRODUCT_NOT_FOUND]: entry(404, 'No such product'),
  [ErrorCode.CUSTOMER_NOT_FOUND]: entry(404, 'No such customer'),
  [ErrorCode.FILE_NOT_FOUND]: entry(404, 'No such file'),
  [ErrorCode.WEBHOOK_ENDPOINT_NOT_FOUND]: entry(404, 'No such webhook endpoint'),
  [ErrorCode.EVENT_NOT_FOUND]: entry(404, 'No such event'),
  [ErrorCode.STATEMENT_NOT_FOUND]: entry(404, 'No such usage statement'),
  [ErrorCode.MERCHANT_NOT_FOUND]: entry(404, 'No such merchant (admin API)'),
  [ErrorCode.API_KEY_NOT_FOUND]: entry(404, 'No such API key (admin API)'),
  [ErrorCode.NOT_FOUND]: entry(404, 'Unknown route, or file/entitlement not found on download'),
  [ErrorCode.ENTITLEMENT_NOT_ACTIVE]: entry(403, 'The entitlement is not active'),
  [ErrorCode.UPLOAD_NOT_CONFIRMED]: entry(409, 'Confirm: no object in storage, or its size is off by more than 10% (the object is deleted)'),
  [ErrorCode.UPLOAD_NOT_CONFIRMED_FOR_DOWNLOAD]: entry(400, 'Download: the file is not CONFIRMED', 'UPLOAD_NOT_CONFIRMED'),
  [ErrorCode.FILE_ALREADY_CONFIRMED]: entry(409, 'Confirm: the file is already CONFIRMED (a second confirm); nothing changed'),
  [ErrorCode.INVALID_STATUS_TRANSITION]: entry(409, 'The lifecycle forbids this operation in the current status'),
  [ErrorCode.IDEMPOTENCY_KEY_CONFLICT]: entry(409, 'The idempotency key was used with different parameters, or its first request finished while this one waited (retry to get its result)'),
  [ErrorCode.PRODUCT_ARCHIVED]: entry(409, 'The product is archived and cannot be granted'),
  [ErrorCode.DUPLICATE_STORE_ID]: entry(409, 'Another product already has this store_product_id'),
  [ErrorCode.ORDER_NOT_FOUND]: entry(404, 'No such order'),
  [ErrorCode.GRANT_RULE_NOT_FOUND]: entry(404, 'No such grant rule'),
  [ErrorCode.ORDER_CUSTOMER_MISMATCH]: entry(409, 'The order is already recorded for another customer'),
  [ErrorCode.MANAGED_BY_PARENT]: entry(409, "A bundle's child entitlement follows its parent; operate on the parent"),
  [ErrorCode.SUBSCRIPTION_NOT_FOUND]: entry(404, 'No such subscription'),
  [ErrorCode.SUBSCRIPTION_CONFLICT]: entry(409, 'A subscription keeps the customer and product of its first put'),
  [ErrorCode.IMPORT_NOT_FOUND]: entry(404, 'No such entitlement import'),
  [ErrorCode.TEST_MODE_ONLY]: entry(400, 'The route exists in test mode only: use a test key'),
  [ErrorCode.TEST_CLOCK_NOT_FOUND]: entry(404, 'No such test clock'),
  [ErrorCode.TEST_CLOCK_MISMATCH]: entry(409, 'The customer exists and is not bound to this test clock'),
  [ErrorCode.INVALID_CREDENTIALS]: entry(401, 'Dashboard sign-in: unknown email or wrong password'),
  [ErrorCode.INVALID_SESSION]: entry(401, 'No dashboard or portal session, or it ended (signed out or idle for 12 hours)'),
  [ErrorCode.CSRF_TOKEN_INVALID]: entry(403, "A state-changing request of a dashboard or portal session without the session's X-CSRF-Token"),
  [ErrorCode.SETUP_LINK_INVALID]: entry(404, 'The setup link is unknown, used or older than 24 hours'),
  [ErrorCode.DASHBOARD_USER_EXISTS]: entry(409, "The email already belongs to another merchant's dashboard user"),
  [ErrorCode.FILE_IN_USE]: entry(409, 'The confirmed file is linked to a product; unlink it first'),
  [ErrorCode.DASHBOARD_USER_NOT_FOUND]: entry(404, "No such user in the merchant's dashboard team"),
  [ErrorCode.LAST_DASHBOARD_USER]: entry(409, "The merchant's last dashboard user can't be removed"),
  [ErrorCode.LAST_OWNER]: entry(409, 'A merchant always keeps one owner: make another user owner first'),
  [ErrorCode.LICENSE_KEY_NOT_FOUND]: entry(404, 'No such license key (merchant routes: by id; app routes: the key as typed)'),
  [ErrorCode.ACTIVATION_NOT_FOUND]: entry(404, 'No such activation of this license key'),
  [ErrorCode.ACTIVATION_LIMIT_REACHED]: entry(409, "The license key's activation limit is reached: deactivate a device first"),
  [ErrorCode.INTERNAL_ERROR]: entry(500, 'Unexpected error; logged with the request id'),
  [ErrorCode.SERVICE_UNAVAILABLE]: entry(503, 'The database is unreachable or busy; retry after Retry-After seconds'),
};

export const ERROR_CATALOGUE: Record<ErrorCode, CatalogueEntry> = Object.fromEntries(
  Object.entries(CATALOGUE_SOURCE).map(([code, value]) => [
    code,
    { status: value.status, description: value.description, renderedCode: value.renderedCode ?? code },
  ]),
) as Record<ErrorCode, CatalogueEntry>;

const TYPE_BY_STATUS: Record<number, ErrorType> = {
  400: 'invalid_request_error',
  413: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'conflict_error',
  429: 'rate_limit_error',
  500: 'api_error',
  503: 'api_error',
};

export function errorTypeForStatus(status: number): ErrorType {
  return TYPE_BY_STATUS[status] ?? 'api_error';
}
