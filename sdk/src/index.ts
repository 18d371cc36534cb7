export { ApiError, isApiError, UNEXPECTED_RESPONSE } from './api-error';
export type { ApiErrorCode, ErrorBody } from './api-error';
export { createEntitlementDeliveryClient } from './client';
export type { Body, ClientOptions, EntitlementDeliveryClient, Query, Schemas, WriteOptions } from './client';
export { ERROR_CODES } from './generated/error-codes';
export type { ErrorCode } from './generated/error-codes';
export type { components, operations, paths } from './generated/openapi';
