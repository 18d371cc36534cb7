import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';

export function licenseKeyNotFound(licenseKeyId: string): ApiError {
  return new ApiError(ErrorCode.LICENSE_KEY_NOT_FOUND, `No license key with id '${licenseKeyId}'`);
}

/** An app route's key that names no license: the same answer whether it was malformed, guessed or revoked with its merchant. */
export function typedKeyNotFound(): ApiError {
  return new ApiError(ErrorCode.LICENSE_KEY_NOT_FOUND, "No license key matches 'key'", 'key');
}

export function activationNotFound(what: string): ApiError {
  return new ApiError(ErrorCode.ACTIVATION_NOT_FOUND, `No activation ${what} for this license key`, what.startsWith('with fingerprint') ? 'fingerprint' : undefined);
}
