import { parse as parseQuery } from 'node:querystring';
import { CheckEntitlementQueryDto } from '../../src/entitlements/dto/entitlement-query.dto';
import { parseCheckQuery } from '../../src/entitlements/check-query.pipe';
import { ApiError } from '../../src/errors/api-error';
import { ErrorCode } from '../../src/errors/error-code.enum';
import { ApiValidationPipe } from '../../src/validation/validation-exception.factory';

/** The same DTO without the @ParsedByOwnPipe mark: the global pipe validates it with class-validator. */
class ClassValidatedCheckQuery extends CheckEntitlementQueryDto {}

type Outcome = { refused: { code: ErrorCode; message: string; param: string | undefined } } | { parsed: Record<string, unknown> };

function outcomeOf(run: () => unknown): Promise<Outcome> {
  return Promise.resolve()
    .then(run)
    .then(
      (value) => ({ parsed: { ...(value as Record<string, unknown>) } }),
      (error: unknown) => {
        if (!(error instanceof ApiError)) throw error;
        return { refused: { code: error.code, message: error.message, param: error.param } };
      },
    );
}

const long = 'x'.repeat(256);
const QUERIES = [
  'customer_id=cus_1&product_id=prod_1',
  'store_customer_id=store_cust_1001&store_product_id=sku_ebook_42',
  'customer_id=cus_1&store_customer_id=c&product_id=p&store_product_id=s&include_token=true',
  'customer_id=&product_id=',
  '',
  'include_token=false',
  'include_token=yes',
  'include_token=',
  'include_token=true&include_token=false',
  'customer_id=a&customer_id=b',
  'product_id=a&product_id=b&customer_id=c',
  `customer_id=${long}`,
  `store_product_id=${'x'.repeat(255)}`,
  `customer_id=${'😀'.repeat(200)}`,
  'custmer_id=cus_1&product_id=prod_1',
  'qty=3',
  'product_id=p&zzz=1&store_prodct_id=2',
  '__proto__=x&customer_id=c',
  'constructor=1',
  'customer_id=a%00b',
  'product_id=%ED%A0%80',
  'customer_id=cus_1&metadata=x',
  `include_token=maybe&customer_id=${long}`,
  `customer_id=a&customer_id=b&unknown=1`,
];

describe('parseCheckQuery', () => {
  const classValidated = new ApiValidationPipe();

  it.each(QUERIES)('answers `%s` exactly as class-validator does', async (text) => {
    const parsed = await outcomeOf(() => parseCheckQuery(parseQuery(text)));
    const validated = await outcomeOf(() => classValidated.transform(parseQuery(text), { type: 'query', metatype: ClassValidatedCheckQuery, data: '' }));
    expect(parsed).toEqual(validated);
  });

  it('keeps only the parameters sent', () => {
    expect(parseCheckQuery(parseQuery('customer_id=cus_1&store_product_id=sku_1&include_token=true'))).toEqual({
      customer_id: 'cus_1',
      store_product_id: 'sku_1',
      include_token: 'true',
    });
  });

  it('refuses a repeated parameter, an unknown one (with a suggestion) and a bad include_token', () => {
    expect(() => parseCheckQuery(parseQuery('customer_id=a&customer_id=b'))).toThrow("Invalid 'customer_id': customer_id must be a string");
    expect(() => parseCheckQuery(parseQuery('custmer_id=a'))).toThrow("Unknown field 'custmer_id'; did you mean 'customer_id'?");
    expect(() => parseCheckQuery(parseQuery('include_token=1'))).toThrow("Invalid 'include_token': include_token must be true or false");
  });

  it('leaves the check DTO to its own pipe in the global validation pipe', async () => {
    const raw = parseQuery('anything=1');
    await expect(new ApiValidationPipe().transform(raw, { type: 'query', metatype: CheckEntitlementQueryDto, data: '' })).resolves.toBe(raw);
  });
});
