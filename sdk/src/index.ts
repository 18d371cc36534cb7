export {
  ApiConnectionError,
  ApiError,
  ApiServerError,
  ApiTimeoutError,
  AuthenticationError,
  BillingError,
  ConflictError,
  InvalidRequestError,
  isApiError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  SHOULD_RETRY_HEADER,
  UNEXPECTED_RESPONSE,
} from './api-error';
export type { ApiErrorCode, ApiErrorType, ErrorBody } from './api-error';
export { createEntitlementDeliveryClient } from './client';
export type { ClientOptions, EntitlementDeliveryClient, FilesGroup, TokensHelper, WebhooksHelper } from './client';
export { ERROR_CODES } from './generated/error-codes';
export type { ErrorCode } from './generated/error-codes';
export type { components, operations, paths } from './generated/openapi';
export { OPERATIONS } from './generated/operations';
export type * from './generated/operations';
export type { OperationDescription } from './operation-description';
export type { ApiResult, Body, OperationError, OperationErrorCode, PageItem, PagePromise, Query, RequestOptions, ResponseBody } from './operation-types';
export type { RateLimit, ResponseInfo } from './response-info';
export { publishedIssuer, TOKEN_ISSUER_PATH, TokenVerificationError, verifyEntitlementToken } from './tokens';
export type { EntitlementTokenClaims, TokenVerificationFailure, VerifyEntitlementTokenOptions } from './tokens';
export { verifyLicenseFile } from './licenses';
export type { LicenseFileClaims, VerifyLicenseFileOptions } from './licenses';
export { backoffDelay, DEFAULT_RETRY_POLICY, isIdempotent, isRetryable, retryAfterDelay } from './transport';
export type { FetchFunction, RetryPolicy } from './transport';
export { signWebhook, verifyWebhook, WebhookVerificationError } from './webhooks';
export type { SignWebhookOptions, VerifyWebhookOptions, WebhookEvent, WebhookHeaders, WebhookVerificationFailure } from './webhooks';

import type { components } from './generated/openapi';
/** Every schema of the document, by name (`Schemas['ProductResponseDto']`). */
export type Schemas = components['schemas'];
