import { ApiError } from '../../src/errors/api-error';
import { atMostOne, exactlyOne } from '../../src/validation/exactly-one';

function refusal(work: () => unknown): { code: string; param?: string; message: string } {
  try {
    work();
  } catch (error) {
    if (error instanceof ApiError) return { code: error.renderedCode, param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('exactlyOne / atMostOne: one rule and one code for naming a thing by one of its ids', () => {
  it('returns the one field given, empty values counting as absent', () => {
    expect(exactlyOne({ customer_id: undefined, store_customer_id: 'cust_1' })).toEqual({ field: 'store_customer_id', value: 'cust_1' });
    expect(exactlyOne({ customer_id: 'cus_1', store_customer_id: '' })).toEqual({ field: 'customer_id', value: 'cus_1' });
    expect(atMostOne({ product_id: undefined, store_product_id: null })).toBeNull();
  });

  it('refuses both and neither with MISSING_REQUIRED_FIELD, naming the field', () => {
    expect(refusal(() => exactlyOne({ customer_id: 'cus_1', store_customer_id: 'cust_1' }))).toEqual({
      code: 'MISSING_REQUIRED_FIELD',
      param: 'store_customer_id',
      message: "Pass exactly one of 'customer_id' and 'store_customer_id', not both",
    });
    expect(refusal(() => exactlyOne({ customer_id: undefined, store_customer_id: undefined }))).toEqual({
      code: 'MISSING_REQUIRED_FIELD',
      param: 'customer_id',
      message: "Pass one of 'customer_id' or 'store_customer_id'",
    });
  });

  it('places the fields in the body with a prefix, and counts three names alike', () => {
    const named = { product_id: 'prod_1', store_product_id: undefined, store_variant_id: 'v' };
    expect(refusal(() => atMostOne(named, 'line_items[2].'))).toMatchObject({ code: 'MISSING_REQUIRED_FIELD', param: 'line_items[2].store_variant_id' });
  });
});
