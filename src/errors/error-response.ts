import { ApiError } from './api-error';

export interface ErrorBody {
  error: {
    type: string;
    message: string;
    code: string;
    request_id: string;
    param?: string;
  };
}

export function renderError(error: ApiError, requestId: string): ErrorBody {
  return {
    error: {
      type: error.type,
      message: error.message,
      code: error.renderedCode,
      request_id: requestId,
      ...(error.param !== undefined ? { param: error.param } : {}),
    },
  };
}
