import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';

interface FlatError {
  path: string;
  value: unknown;
  constraints: Record<string, string>;
  contexts: Record<string, { errorCode?: ErrorCode } | undefined>;
}

function flatten(errors: ValidationError[], parentPath = ''): FlatError[] {
  return errors.flatMap((error) => {
    const path = parentPath ? `${parentPath}.${error.property}` : error.property;
    const own: FlatError[] = error.constraints
      ? [{ path, value: error.value, constraints: error.constraints, contexts: error.contexts ?? {} }]
      : [];
    return [...own, ...flatten(error.children ?? [], path)];
  });
}

/**
 * Maps class-validator failures onto the catalogue: an unknown field or a bad value is
 * INVALID_PARAMETER, an absent required one MISSING_REQUIRED_FIELD. A decorator may override the
 * code through `context: { errorCode }` (the upload-url fields use that, as the reference asks).
 */
export function validationExceptionFactory(errors: ValidationError[]): ApiError {
  const [first] = flatten(errors);
  if (!first) return new ApiError(ErrorCode.INVALID_PARAMETER, 'The request is invalid');
  const constraintNames = Object.keys(first.constraints);
  if (constraintNames.includes('whitelistValidation')) {
    return new ApiError(ErrorCode.INVALID_PARAMETER, `Unknown field '${first.path}'`, first.path);
  }
  const contextCode = constraintNames.map((name) => first.contexts[name]?.errorCode).find(Boolean);
  const message = first.constraints[constraintNames[0]];
  if (first.value === undefined || first.value === null) {
    if (constraintNames.includes('isDefined') || constraintNames.includes('isNotEmpty')) {
      return new ApiError(contextCode ?? ErrorCode.MISSING_REQUIRED_FIELD, `Missing required field '${first.path}'`, first.path);
    }
  }
  return new ApiError(contextCode ?? ErrorCode.INVALID_PARAMETER, `Invalid '${first.path}': ${message}`, first.path);
}

export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: validationExceptionFactory,
  });
}
