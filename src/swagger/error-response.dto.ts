import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ERROR_CATALOGUE } from '../errors/error-code.enum';

/** Every code a body can carry; a client can switch on them exhaustively. */
const RENDERED_CODES = [...new Set(Object.values(ERROR_CATALOGUE).map((entry) => entry.renderedCode))];

export class ErrorDetailDto {
  @ApiProperty({
    description: 'Error category',
    enum: [
      'invalid_request_error',
      'authentication_error',
      'billing_error',
      'permission_error',
      'not_found_error',
      'conflict_error',
      'rate_limit_error',
      'api_error',
    ],
    example: 'invalid_request_error',
  })
  type: string;

  @ApiProperty({ description: 'What went wrong, written for a person; names the field at fault', example: "Invalid 'limit': limit must be an integer from 1 to 100" })
  message: string;

  @ApiProperty({ description: 'Machine-readable error code from the catalogue', enum: RENDERED_CODES, enumName: 'ErrorCode', example: 'INVALID_PARAMETER' })
  code: string;

  @ApiProperty({ description: 'The request id, also in the X-Request-Id header', example: 'req_5mJq2cV1xWb0aPz7' })
  request_id: string;

  @ApiPropertyOptional({ description: 'The field or query parameter at fault, when there is one', example: 'limit' })
  param?: string;
}

export class ErrorResponseDto {
  @ApiProperty({ description: 'The error', type: ErrorDetailDto })
  error: ErrorDetailDto;
}
