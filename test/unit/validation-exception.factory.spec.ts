import { ValidationError } from 'class-validator';
import { CreateMerchantDto } from '../../src/admin/dto/admin-request.dto';
import { ApiError } from '../../src/errors/api-error';
import { ErrorCode } from '../../src/errors/error-code.enum';
import { CreateProductDto, UpdateProductDto } from '../../src/products/dto/product-request.dto';
import { createValidationPipe, validationExceptionFactory } from '../../src/validation/validation-exception.factory';

function validationError(
  property: string,
  value: unknown,
  constraints: Record<string, string> | undefined,
  extra: Partial<ValidationError> = {},
): ValidationError {
  return Object.assign(new ValidationError(), { property, value, constraints, children: [], ...extra });
}

describe('validationExceptionFactory', () => {
  it('maps an unknown field to INVALID_PARAMETER naming it', () => {
    const error = validationExceptionFactory([
      validationError('colour', 'red', { whitelistValidation: 'property colour should not exist' }),
    ]);
    expect(error.code).toBe(ErrorCode.INVALID_PARAMETER);
    expect(error.param).toBe('colour');
    expect(error.message).toContain('colour');
  });

  it('maps an absent @IsDefined field to MISSING_REQUIRED_FIELD', () => {
    const error = validationExceptionFactory([
      validationError('name', undefined, { isDefined: 'name should not be null or undefined', isString: 'name must be a string' }),
    ]);
    expect(error.code).toBe(ErrorCode.MISSING_REQUIRED_FIELD);
    expect(error.param).toBe('name');
    expect(error.message).toContain('name');
  });

  it('maps a present but bad value to INVALID_PARAMETER with the constraint message', () => {
    const error = validationExceptionFactory([validationError('plan', 'gold', { isIn: 'plan must be one of: free, growth' })]);
    expect(error.code).toBe(ErrorCode.INVALID_PARAMETER);
    expect(error.param).toBe('plan');
    expect(error.message).toContain('plan must be one of');
  });

  it('lets a decorator force the code through its context', () => {
    const error = validationExceptionFactory([
      validationError('filename', 'x', { isString: 'bad' }, { contexts: { isString: { errorCode: ErrorCode.MISSING_REQUIRED_FIELD } } }),
    ]);
    expect(error.code).toBe(ErrorCode.MISSING_REQUIRED_FIELD);
  });

  it('names nested fields with their path', () => {
    const nested = validationError('fulfillment_config', {}, undefined, {
      children: [validationError('delivery_method', 'FAX', { isIn: 'delivery_method must be one of: URL, FILE' })],
    });
    const error = validationExceptionFactory([nested]);
    expect(error.code).toBe(ErrorCode.INVALID_PARAMETER);
    expect(error.param).toBe('fulfillment_config.delivery_method');
  });

  it('falls back to INVALID_PARAMETER when there is nothing to name', () => {
    expect(validationExceptionFactory([]).code).toBe(ErrorCode.INVALID_PARAMETER);
  });

  describe('through the global ValidationPipe', () => {
    const pipe = createValidationPipe();
    const transformBody = (value: unknown) => pipe.transform(value, { type: 'body', metatype: CreateMerchantDto });

    async function refusal(value: unknown): Promise<ApiError> {
      try {
        await transformBody(value);
      } catch (error) {
        return error as ApiError;
      }
      throw new Error('expected the pipe to refuse');
    }

    it('accepts a valid body', async () => {
      await expect(transformBody({ name: 'Acme', plan: 'free' })).resolves.toMatchObject({ name: 'Acme', plan: 'free' });
    });

    it('maps real class-validator failures', async () => {
      expect(await refusal({ plan: 'free' })).toMatchObject({ code: ErrorCode.MISSING_REQUIRED_FIELD, param: 'name' });
      expect(await refusal({ name: 'Acme', plan: 'gold' })).toMatchObject({ code: ErrorCode.INVALID_PARAMETER, param: 'plan' });
      expect(await refusal({ name: 'Acme', plan: 'free', colour: 'red' })).toMatchObject({ code: ErrorCode.INVALID_PARAMETER, param: 'colour' });
    });

    it('treats null as missing for a required field and as invalid for an optional one (a PATCH body derived with PartialType)', async () => {
      const refusalOf = async (metatype: new () => object, value: unknown): Promise<ApiError> => {
        try {
          await pipe.transform(value, { type: 'body', metatype });
        } catch (error) {
          return error as ApiError;
        }
        throw new Error('expected the pipe to refuse');
      };
      expect(await refusalOf(CreateProductDto, { name: null, entitlement_type: 'permanent' })).toMatchObject({ code: ErrorCode.MISSING_REQUIRED_FIELD, param: 'name' });
      const patchNull = await refusalOf(UpdateProductDto, { name: null });
      expect(patchNull).toMatchObject({ code: ErrorCode.INVALID_PARAMETER, param: 'name' });
      expect(patchNull.message).toMatch(/^Invalid 'name': name must /);
      expect(await refusalOf(UpdateProductDto, { entitlement_type: null })).toMatchObject({ code: ErrorCode.INVALID_PARAMETER, param: 'entitlement_type' });
      // Absent fields of the PATCH body are simply not changed; nullable ones accept null.
      await expect(pipe.transform({ store_product_id: null }, { type: 'body', metatype: UpdateProductDto })).resolves.toMatchObject({ store_product_id: null });
      await expect(pipe.transform({}, { type: 'body', metatype: UpdateProductDto })).resolves.toEqual({});
    });
  });
});
