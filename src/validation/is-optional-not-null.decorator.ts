import { ValidateIf, ValidationOptions } from 'class-validator';

/**
 * Like @IsOptional(), but only an absent field skips validation: an explicit null is validated
 * (and refused by the type decorators), for optional fields whose column is NOT NULL. With
 * @IsOptional(), `{"name": null}` reached the database and failed there as a 500.
 */
export function IsOptionalNotNull(validationOptions?: ValidationOptions): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined, validationOptions);
}
