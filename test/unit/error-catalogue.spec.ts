import { ApiError } from '../../src/errors/api-error';
import { ERROR_CATALOGUE, ErrorCode, errorTypeForStatus } from '../../src/errors/error-code.enum';
import { renderError } from '../../src/errors/error-response';

const EXPECTED_STATUS: Record<ErrorCode, number> = {
  [ErrorCode.INVALID_API_KEY]: 401,
  [ErrorCode.INSUFFICIENT_SCOPE]: 403,
  [ErrorCode.RATE_LIMITED]: 429,
  [ErrorCode.MISSING_REQUIRED_FIELD]: 400,
  [ErrorCode.INVALID_PARAMETER]: 400,
  [ErrorCode.INVALID_JSON]: 400,
  [ErrorCode.FILTER_REQUIRED]: 400,
  [ErrorCode.PAYLOAD_TOO_LARGE]: 413,
  [ErrorCode.FILE_TOO_LARGE]: 400,
  [ErrorCode.STORAGE_LIMIT_REACHED]: 402,
  [ErrorCode.BANDWIDTH_LIMIT_REACHED]: 402,
  [ErrorCode.ENTITLEMENT_NOT_FOUND]: 404,
  [ErrorCode.PRODUCT_NOT_FOUND]: 404,
  [ErrorCode.CUSTOMER_NOT_FOUND]: 404,
  [ErrorCode.FILE_NOT_FOUND]: 404,
  [ErrorCode.WEBHOOK_ENDPOINT_NOT_FOUND]: 404,
  [ErrorCode.EVENT_NOT_FOUND]: 404,
  [ErrorCode.STATEMENT_NOT_FOUND]: 404,
  [ErrorCode.MERCHANT_NOT_FOUND]: 404,
  [ErrorCode.API_KEY_NOT_FOUND]: 404,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.ENTITLEMENT_NOT_ACTIVE]: 403,
  [ErrorCode.UPLOAD_NOT_CONFIRMED]: 409,
  [ErrorCode.UPLOAD_NOT_CONFIRMED_FOR_DOWNLOAD]: 400,
  [ErrorCode.FILE_ALREADY_CONFIRMED]: 409,
  [ErrorCode.INVALID_STATUS_TRANSITION]: 409,
  [ErrorCode.IDEMPOTENCY_KEY_CONFLICT]: 409,
  [ErrorCode.PRODUCT_ARCHIVED]: 409,
  [ErrorCode.DUPLICATE_STORE_ID]: 409,
  [ErrorCode.ORDER_NOT_FOUND]: 404,
  [ErrorCode.GRANT_RULE_NOT_FOUND]: 404,
  [ErrorCode.ORDER_CUSTOMER_MISMATCH]: 409,
  [ErrorCode.MANAGED_BY_PARENT]: 409,
  [ErrorCode.SUBSCRIPTION_NOT_FOUND]: 404,
  [ErrorCode.SUBSCRIPTION_CONFLICT]: 409,
  [ErrorCode.IMPORT_NOT_FOUND]: 404,
  [ErrorCode.TEST_MODE_ONLY]: 400,
  [ErrorCode.TEST_CLOCK_NOT_FOUND]: 404,
  [ErrorCode.TEST_CLOCK_MISMATCH]: 409,
  [ErrorCode.INVALID_CREDENTIALS]: 401,
  [ErrorCode.INVALID_SESSION]: 401,
  [ErrorCode.CSRF_TOKEN_INVALID]: 403,
  [ErrorCode.SETUP_LINK_INVALID]: 404,
  [ErrorCode.DASHBOARD_USER_EXISTS]: 409,
  [ErrorCode.FILE_IN_USE]: 409,
  [ErrorCode.DASHBOARD_USER_NOT_FOUND]: 404,
  [ErrorCode.LAST_DASHBOARD_USER]: 409,
  [ErrorCode.LAST_OWNER]: 409,
  [ErrorCode.LICENSE_KEY_NOT_FOUND]: 404,
  [ErrorCode.ACTIVATION_NOT_FOUND]: 404,
  [ErrorCode.ACTIVATION_LIMIT_REACHED]: 409,
  [ErrorCode.INTERNAL_ERROR]: 500,
  [ErrorCode.SERVICE_UNAVAILABLE]: 503,
};

const TYPES = [
  'invalid_request_error',
  'authentication_error',
  'billing_error',
  'permission_error',
  'not_found_error',
  'conflict_error',
  'rate_limit_error',
  'api_error',
];

describe('error catalogue', () => {
  it.each(Object.values(ErrorCode))('%s maps to its status, a type and a description', (code) => {
    const entry = ERROR_CATALOGUE[code];
    expect(entry.status).toBe(EXPECTED_STATUS[code]);
    expect(entry.description.length).toBeGreaterThan(0);
    const error = new ApiError(code, 'message');
    expect(error.status).toBe(entry.status);
    expect(TYPES).toContain(error.type);
  });

  it('gives each status its type', () => {
    expect(errorTypeForStatus(400)).toBe('invalid_request_error');
    expect(errorTypeForStatus(413)).toBe('invalid_request_error');
    expect(errorTypeForStatus(401)).toBe('authentication_error');
    expect(errorTypeForStatus(402)).toBe('billing_error');
    expect(errorTypeForStatus(403)).toBe('permission_error');
    expect(errorTypeForStatus(404)).toBe('not_found_error');
    expect(errorTypeForStatus(409)).toBe('conflict_error');
    expect(errorTypeForStatus(429)).toBe('rate_limit_error');
    expect(errorTypeForStatus(500)).toBe('api_error');
    expect(errorTypeForStatus(503)).toBe('api_error');
  });

  it('renders the download flavour of UPLOAD_NOT_CONFIRMED under the public code with 400', () => {
    const error = new ApiError(ErrorCode.UPLOAD_NOT_CONFIRMED_FOR_DOWNLOAD, 'not confirmed', 'file_id');
    expect(error.status).toBe(400);
    expect(renderError(error, 'req_1')).toEqual({
      error: { type: 'invalid_request_error', message: 'not confirmed', code: 'UPLOAD_NOT_CONFIRMED', request_id: 'req_1', param: 'file_id' },
    });
  });

  it('renders every other code under its own name, without param when there is none', () => {
    for (const code of Object.values(ErrorCode).filter((value) => value !== ErrorCode.UPLOAD_NOT_CONFIRMED_FOR_DOWNLOAD)) {
      const body = renderError(new ApiError(code, 'message'), 'req_2');
      expect(body.error.code).toBe(code);
      expect(body.error).not.toHaveProperty('param');
    }
  });
});
