import { ApiError } from '../../src/errors/api-error';
import type { FulfillmentConfigRequestDto } from '../../src/products/dto/product-request.dto';
import { DEFAULT_FULFILLMENT_CONFIG, normalizeFulfillmentConfig, resolveTypeFields } from '../../src/products/product-rules';

function errorOf(action: () => unknown): { code: string; param?: string; message: string } {
  try {
    action();
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected an ApiError');
}

const FILE_ID = 'file_01jd8x3k2m4n5p6q7r8s9t0v1w';
const OTHER_FILE_ID = 'file_01jd8x3k2m4n5p6q7r8s9t0v1x';

describe('product rules', () => {
  describe('type fields: access_duration_days iff time_limited, usage_limit iff usage_limited', () => {
    it('requires each type field for its type only', () => {
      expect(resolveTypeFields({ entitlement_type: 'time_limited', access_duration_days: 7 })).toEqual({ access_duration_days: 7, usage_limit: null });
      expect(resolveTypeFields({ entitlement_type: 'usage_limited', usage_limit: 2, access_duration_days: null })).toEqual({ access_duration_days: null, usage_limit: 2 });
      expect(resolveTypeFields({ entitlement_type: 'permanent' })).toEqual({ access_duration_days: null, usage_limit: null });
      expect(resolveTypeFields({ entitlement_type: 'subscription_linked', access_duration_days: null, usage_limit: null })).toEqual({ access_duration_days: null, usage_limit: null });
    });

    it('refuses a missing field of the type, naming it and the type', () => {
      expect(errorOf(() => resolveTypeFields({ entitlement_type: 'time_limited' }))).toEqual({
        code: 'MISSING_REQUIRED_FIELD',
        param: 'access_duration_days',
        message: "Missing required field 'access_duration_days': it is required (≥ 1) for time_limited products",
      });
      expect(errorOf(() => resolveTypeFields({ entitlement_type: 'usage_limited', usage_limit: null }))).toEqual({
        code: 'MISSING_REQUIRED_FIELD',
        param: 'usage_limit',
        message: "Missing required field 'usage_limit': it is required (≥ 1) for usage_limited products",
      });
    });

    it('refuses a field sent for another type rather than dropping it', () => {
      expect(errorOf(() => resolveTypeFields({ entitlement_type: 'permanent', usage_limit: 3 }))).toEqual({
        code: 'INVALID_PARAMETER',
        param: 'usage_limit',
        message: "Invalid 'usage_limit': it applies only to usage_limited products, not permanent; omit it or send null",
      });
      expect(errorOf(() => resolveTypeFields({ entitlement_type: 'usage_limited', usage_limit: 3, access_duration_days: 30 }))).toEqual({
        code: 'INVALID_PARAMETER',
        param: 'access_duration_days',
        message: "Invalid 'access_duration_days': it applies only to time_limited products, not usage_limited; omit it or send null",
      });
    });

    it('on PATCH, keeps a stored value while the type uses it and clears it when the type changes', () => {
      const timed = { access_duration_days: 30, usage_limit: null };
      expect(resolveTypeFields({ entitlement_type: 'time_limited' }, timed)).toEqual(timed);
      expect(resolveTypeFields({ entitlement_type: 'time_limited', access_duration_days: 60 }, timed)).toEqual({ access_duration_days: 60, usage_limit: null });
      expect(resolveTypeFields({ entitlement_type: 'permanent' }, timed)).toEqual({ access_duration_days: null, usage_limit: null });
      const counted = { access_duration_days: null, usage_limit: 10 };
      expect(resolveTypeFields({ entitlement_type: 'usage_limited' }, counted)).toEqual(counted);
      // Changed to time_limited: the stored usage_limit goes, the new type's field is required.
      expect(resolveTypeFields({ entitlement_type: 'time_limited', access_duration_days: 5 }, counted)).toEqual({ access_duration_days: 5, usage_limit: null });
      expect(errorOf(() => resolveTypeFields({ entitlement_type: 'time_limited' }, counted)).param).toBe('access_duration_days');
      // An explicit null clears a stored value the type needs: refused.
      expect(errorOf(() => resolveTypeFields({ entitlement_type: 'time_limited', access_duration_days: null }, timed)).code).toBe('MISSING_REQUIRED_FIELD');
    });
  });

  describe('fulfillment config: only the delivery method’s own fields, checked', () => {
    it('defaults to FILE delivery with no files', () => {
      expect(DEFAULT_FULFILLMENT_CONFIG).toEqual({ delivery_method: 'FILE', file_ids: [], access_url: null, access_instructions: null });
    });

    it('FILE: keeps well-formed file ids once each, in order; nothing else', () => {
      expect(normalizeFulfillmentConfig({ delivery_method: 'FILE', file_ids: [FILE_ID, OTHER_FILE_ID, FILE_ID] })).toEqual({
        delivery_method: 'FILE',
        file_ids: [FILE_ID, OTHER_FILE_ID],
        access_url: null,
        access_instructions: null,
      });
      expect(normalizeFulfillmentConfig({ delivery_method: 'FILE' })).toEqual(DEFAULT_FULFILLMENT_CONFIG);
      expect(normalizeFulfillmentConfig({ delivery_method: 'FILE', file_ids: null, access_url: null, access_instructions: null })).toEqual(DEFAULT_FULFILLMENT_CONFIG);
    });

    it('FILE: refuses an id that is not a file id, naming it', () => {
      expect(errorOf(() => normalizeFulfillmentConfig({ delivery_method: 'FILE', file_ids: [FILE_ID, 'prod_01jd8x3k2m4n5p6q7r8s9t0v1w'] }))).toEqual({
        code: 'INVALID_PARAMETER',
        param: 'fulfillment_config.file_ids',
        message: "Invalid 'fulfillment_config.file_ids': 'prod_01jd8x3k2m4n5p6q7r8s9t0v1w' is not a file id",
      });
    });

    it('URL: keeps an absolute https URL', () => {
      expect(normalizeFulfillmentConfig({ delivery_method: 'URL', access_url: 'https://a.example/x', file_ids: [], access_instructions: null })).toEqual({
        delivery_method: 'URL',
        file_ids: [],
        access_url: 'https://a.example/x',
        access_instructions: null,
      });
    });

    it('URL: requires the URL', () => {
      for (const input of [{ delivery_method: 'URL' as const }, { delivery_method: 'URL' as const, access_url: null }]) {
        expect(errorOf(() => normalizeFulfillmentConfig(input))).toEqual({
          code: 'MISSING_REQUIRED_FIELD',
          param: 'fulfillment_config.access_url',
          message: "Missing required field 'fulfillment_config.access_url': URL delivery needs an https URL",
        });
      }
    });

    it.each(['http://a.example/x', 'ftp://a.example', 'a.example/x', '/relative', 'https://', 'javascript:alert(1)'])('URL: refuses %s', (accessUrl) => {
      expect(errorOf(() => normalizeFulfillmentConfig({ delivery_method: 'URL', access_url: accessUrl }))).toEqual({
        code: 'INVALID_PARAMETER',
        param: 'fulfillment_config.access_url',
        message: "Invalid 'fulfillment_config.access_url': it must be an absolute https:// URL",
      });
    });

    it('INSTRUCTIONS: keeps the text as sent', () => {
      expect(normalizeFulfillmentConfig({ delivery_method: 'INSTRUCTIONS', access_instructions: '  Use code X  ' })).toEqual({
        delivery_method: 'INSTRUCTIONS',
        file_ids: [],
        access_url: null,
        access_instructions: '  Use code X  ',
      });
    });

    it('INSTRUCTIONS: requires non-blank text', () => {
      expect(errorOf(() => normalizeFulfillmentConfig({ delivery_method: 'INSTRUCTIONS' }))).toEqual({
        code: 'MISSING_REQUIRED_FIELD',
        param: 'fulfillment_config.access_instructions',
        message: "Missing required field 'fulfillment_config.access_instructions': INSTRUCTIONS delivery needs the text to show",
      });
      expect(errorOf(() => normalizeFulfillmentConfig({ delivery_method: 'INSTRUCTIONS', access_instructions: ' \n\t ' }))).toEqual({
        code: 'INVALID_PARAMETER',
        param: 'fulfillment_config.access_instructions',
        message: "Invalid 'fulfillment_config.access_instructions': it must not be empty",
      });
    });

    it.each([
      ['URL', { file_ids: [FILE_ID] }, 'file_ids'],
      ['INSTRUCTIONS', { file_ids: [FILE_ID], access_instructions: 'x' }, 'file_ids'],
      ['FILE', { access_url: 'https://a.example' }, 'access_url'],
      ['INSTRUCTIONS', { access_url: 'https://a.example', access_instructions: 'x' }, 'access_url'],
      ['FILE', { access_instructions: 'x' }, 'access_instructions'],
      ['URL', { access_url: 'https://a.example', access_instructions: 'x' }, 'access_instructions'],
    ] as [FulfillmentConfigRequestDto['delivery_method'], Omit<FulfillmentConfigRequestDto, 'delivery_method'>, string][])('%s: refuses %j, another method’s field', (method, fields, field) => {
      expect(errorOf(() => normalizeFulfillmentConfig({ delivery_method: method, ...fields }))).toEqual({
        code: 'INVALID_PARAMETER',
        param: `fulfillment_config.${field}`,
        message: `Invalid 'fulfillment_config.${field}': it does not apply to delivery_method ${method}; omit it or send null`,
      });
    });

    it('lets another method’s fields through when they are empty or null', () => {
      expect(normalizeFulfillmentConfig({ delivery_method: 'URL', access_url: 'https://a.example', file_ids: [], access_instructions: null }).access_url).toBe('https://a.example');
      expect(normalizeFulfillmentConfig({ delivery_method: 'INSTRUCTIONS', access_instructions: 'x', file_ids: [], access_url: null }).access_instructions).toBe('x');
    });
  });
});
