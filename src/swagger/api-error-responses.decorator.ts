import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ERROR_CATALOGUE, ErrorCode, errorTypeForStatus } from '../errors/error-code.enum';
import { ErrorResponseDto } from './error-response.dto';
import { RETRY_AFTER_HEADER, SHOULD_RETRY } from './response-headers';

/** Documents the catalogue errors a route can return, grouped by status, each with an example. */
export function ApiErrorResponses(...codes: ErrorCode[]): MethodDecorator & ClassDecorator {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const { status } = ERROR_CATALOGUE[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return applyDecorators(
    ...[...byStatus.entries()].map(([status, statusCodes]) =>
      ApiResponse({
        status,
        description: statusCodes.map((code) => `\`${ERROR_CATALOGUE[code].renderedCode}\`: ${ERROR_CATALOGUE[code].description}`).join('; '),
        type: ErrorResponseDto,
        headers:
          status === 429
            ? { 'Retry-After': RETRY_AFTER_HEADER, 'X-Should-Retry': SHOULD_RETRY }
            : status === 409
              ? { 'Retry-After': RETRY_AFTER_HEADER, 'X-Should-Retry': SHOULD_RETRY }
              : undefined,
        examples: Object.fromEntries(
          statusCodes.map((code) => [
            ERROR_CATALOGUE[code].renderedCode,
            {
              summary: ERROR_CATALOGUE[code].description,
              value: {
                error: {
                  type: errorTypeForStatus(status),
                  message: ERROR_CATALOGUE[code].description,
                  code: ERROR_CATALOGUE[code].renderedCode,
                  request_id: 'req_5mJq2cV1xWb0aPz7',
                },
              },
            },
          ]),
        ),
      }),
    ),
  );
}
