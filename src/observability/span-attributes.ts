/**
 * The OpenTelemetry semantic-convention attribute names the spans carry (stable conventions), as
 * literals: @opentelemetry/semantic-conventions is loaded only with the SDK (tracer-provider.ts).
 */
export const ATTR_HTTP_REQUEST_METHOD = 'http.request.method';
export const ATTR_HTTP_RESPONSE_STATUS_CODE = 'http.response.status_code';
export const ATTR_HTTP_ROUTE = 'http.route';
export const ATTR_URL_PATH = 'url.path';
export const ATTR_DB_SYSTEM_NAME = 'db.system.name';
export const ATTR_DB_OPERATION_NAME = 'db.operation.name';
export const ATTR_DB_QUERY_TEXT = 'db.query.text';
export const DB_SYSTEM_NAME_VALUE_POSTGRESQL = 'postgresql';
