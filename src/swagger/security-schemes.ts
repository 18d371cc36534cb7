/** The OpenAPI security scheme an API-key route declares (Authorization: Bearer eh_…). */
export const API_KEY_SECURITY = 'api_key';
/** The OpenAPI security scheme of the admin API (Authorization: Bearer ADMIN_TOKEN). */
export const ADMIN_TOKEN_SECURITY = 'admin_token';
/** The security scheme of the dashboard's own document (openapi.dashboard.json): the session cookie. */
export const DASHBOARD_SESSION_SECURITY = 'dashboard_session';
/** The tag of the dashboard app's own routes: they make the dashboard's document, and stay out of the public one. */
export const DASHBOARD_TAG = 'dashboard';

/** The value of `x-credential` on the routes a license key in the body authenticates (src/licenses/, DESIGN §18). */
export const LICENSE_KEY_CREDENTIAL = 'license-key';
