import { describe, expect, it } from 'vitest';
import { ApiFailure } from '../api/client';
import { fieldOf, formErrorsOf, plainMessage } from './errors';

describe('plain words', () => {
  it.each([
    ["Invalid 'scopes': scopes must contain at least 1 elements", 'Choose at least one.'],
    ["Invalid 'usage_limit': usage_limit must not be less than 1", 'Enter 1 or more.'],
    ["Invalid 'name': name must be shorter than or equal to 255 characters", 'Use at most 255 characters.'],
    ["Invalid 'name': name should not be empty", 'Fill this in.'],
    ["Invalid 'access_duration_days': access_duration_days must be an integer number", 'Enter a whole number.'],
    ["Invalid 'metadata': metadata must be a JSON object", 'Enter a JSON object, like {"key": "value"}.'],
    ['No product with id prod_x', 'No product with id prod_x'],
  ])('%s → %s', (message, plain) => expect(plainMessage(message)).toBe(plain));

  it('puts an error beside the field its param names, down to the field the form shows', () => {
    const nested = new ApiFailure("Invalid 'fulfillment_config.access_url': must be https", 400, 'INVALID_PARAMETER', 'fulfillment_config.access_url');
    expect(fieldOf(nested, ['name', 'access_url'])).toBe('access_url');
    expect(fieldOf(new ApiFailure('x', 400, 'INVALID_PARAMETER', 'store_variant_ids.3'), ['store_variant_ids'])).toBe('store_variant_ids');
    expect(formErrorsOf(new ApiFailure('Too many', 429, 'RATE_LIMITED'), ['name'])).toEqual({ fields: {}, form: 'Too many requests in a minute: wait a moment and try again.' });
    expect(formErrorsOf(new TypeError('Failed to fetch'), ['name']).form).toBe('The service could not be reached: check your connection and try again.');
  });
});
