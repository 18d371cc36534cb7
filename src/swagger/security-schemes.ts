/** The OpenAPI security scheme an API-key route declares (Authorization: Bearer eh_…). */
export const API_KEY_SECURITY = 'api_key';
/** The OpenAPI security scheme of the admin API (Authorization: Bearer ADMIN_TOKEN). */
export const ADMIN_TOKEN_SECURITY = 'admin_token';
