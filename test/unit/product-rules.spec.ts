import { ApiError } from '../../src/errors/api-error';
import { normalizeFulfillmentConfig, resolveTypeFields } from '../../src/products/product-rules';

function errorOf(action: () => unknown): { code: string; param?: string } {
  try {
    action();
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, param: error.param };
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('product rules', () => {
  it('requires each type field for its type only', () => {
    expect(resolveTypeFields({ entitlement_type: 'time_limited', access_duration_days: 7 })).toEqual({ access_duration_days: 7, usage_limit: null });
    expect(resolveTypeFields({ entitlement_type: 'usage_limited', usage_limit: 2, access_duration_days: null })).toEqual({ access_duration_days: null, usage_limit: 2 });
    expect(errorOf(() => resolveTypeFields({ entitlement_type: 'time_limited' }))).toEqual({ code: 'MISSING_REQUIRED_FIELD', param: 'access_duration_days' });
    expect(errorOf(() => resolveTypeFields({ entitlement_type: 'permanent', usage_limit: 3 }))).toEqual({ code: 'INVALID_PARAMETER', param: 'usage_limit' });
  });

  it('keeps a stored value while the type uses it and clears it when the type changes', () => {
    const current = { access_duration_days: 30, usage_limit: null };
    expect(resolveTypeFields({ entitlement_type: 'time_limited' }, current)).toEqual(current);
    expect(resolveTypeFields({ entitlement_type: 'permanent' }, current)).toEqual({ access_duration_days: null, usage_limit: null });
    expect(errorOf(() => resolveTypeFields({ entitlement_type: 'time_limited', access_duration_days: null }, current)).code).toBe('MISSING_REQUIRED_FIELD');
  });

  it('keeps only the delivery method’s own fields', () => {
    expect(normalizeFulfillmentConfig({ delivery_method: 'URL', access_url: 'https://a.example/x', file_ids: [], access_instructions: null })).toEqual({
      delivery_method: 'URL',
      file_ids: [],
      access_url: 'https://a.example/x',
      access_instructions: null,
    });
    expect(errorOf(() => normalizeFulfillmentConfig({ delivery_method: 'URL', access_url: 'ftp://a.example' })).param).toBe('fulfillment_config.access_url');
    expect(errorOf(() => normalizeFulfillmentConfig({ delivery_method: 'INSTRUCTIONS', access_url: 'https://a.example' })).param).toBe(
      'fulfillment_config.access_url',
    );
    expect(errorOf(() => normalizeFulfillmentConfig({ delivery_method: 'FILE', file_ids: ['prod_01jd8x3k2m4n5p6q7r8s9t0v1w'] })).param).toBe(
      'fulfillment_config.file_ids',
    );
  });
});
