import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { API_MODES, ApiMode } from '../database/tenant';

/**
 * DESIGN §11: a dashboard session holds no mode; each of its requests names the mode of the page
 * that sent it, so two tabs in two modes never act in each other's. API keys carry their own mode
 * and never read this header.
 */
export const MODE_HEADER = 'Eh-Mode';
const HEADER_KEY = MODE_HEADER.toLowerCase();

/** The header's mode; null when absent; 400 INVALID_PARAMETER for anything but `test` or `live`. */
export function optionalModeHeader(headers: IncomingHttpHeaders): ApiMode | null {
  const value = headers[HEADER_KEY];
  if (value === undefined) return null;
  if (typeof value !== 'string' || !API_MODES.includes(value as ApiMode)) {
    throw new ApiError(ErrorCode.INVALID_PARAMETER, `${MODE_HEADER} must be test or live`, MODE_HEADER);
  }
  return value as ApiMode;
}

/** The header's mode, required: 400 MISSING_REQUIRED_FIELD without it. */
export function requiredModeHeader(headers: IncomingHttpHeaders): ApiMode {
  const mode = optionalModeHeader(headers);
  if (mode === null) throw missingModeHeader();
  return mode;
}

/** What a session's request that must name a mode (every /v1 one, the Overview) gets without the header. */
export function missingModeHeader(): ApiError {
  return new ApiError(
    ErrorCode.MISSING_REQUIRED_FIELD,
    `A dashboard session's request needs the ${MODE_HEADER} header (test or live): the mode of the page that sends it`,
    MODE_HEADER,
  );
}
