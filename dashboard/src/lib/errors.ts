import { ApiFailure } from '../api/client';

export type FieldErrors = Record<string, string>;

/**
 * Validation wording of the API (class-validator's, behind "Invalid 'field': ") rewritten as a
 * person would say it beside the field. Anything not listed keeps the API's own sentence, which is
 * written for people already.
 */
const PLAIN: Array<[RegExp, (match: RegExpMatchArray) => string]> = [
  [/must contain at least (\d+) elements?/, (match) => (match[1] === '1' ? 'Choose at least one.' : `Choose at least ${match[1]}.`)],
  [/must contain no more than (\d+) elements?/, (match) => `Choose at most ${match[1]}.`],
  [/must not be less than (-?\d+)/, (match) => `Enter ${match[1]} or more.`],
  [/must not be greater than (-?\d+)/, (match) => `Enter ${match[1]} or less.`],
  [/must be (?:shorter than or equal to|at most) (\d+) characters/, (match) => `Use at most ${match[1]} characters.`],
  [/must be longer than or equal to (\d+) characters/, (match) => (match[1] === '1' ? 'Fill this in.' : `Use at least ${match[1]} characters.`)],
  [/should not be empty|must not be empty|must not be blank|is required/, () => 'Fill this in.'],
  [/must be an integer/, () => 'Enter a whole number.'],
  [/must be a (?:URL address|valid URL)|must match .*https/, () => 'Enter a full https:// address.'],
  [/must be a valid ISO 8601 date string|must be an ISO 8601/, () => 'Enter a date and time.'],
  [/must be an email/, () => 'Enter an email address.'],
  [/must be a JSON object/, () => 'Enter a JSON object, like {"key": "value"}.'],
];

/** One API message in plain words: the rule behind "Invalid 'x': " said to a person. */
export function plainMessage(message: string): string {
  const rule = message.replace(/^Invalid '[^']*': /, '');
  for (const [pattern, say] of PLAIN) {
    const match = rule.match(pattern);
    if (match) return say(match);
  }
  return rule.charAt(0).toUpperCase() + rule.slice(1);
}

/** The form field an API error belongs to: its `param`, down to the field the form shows. */
export function fieldOf(error: unknown, fields: readonly string[]): string | null {
  if (!(error instanceof ApiFailure) || !error.param) return null;
  const param = error.param;
  if (fields.includes(param)) return param;
  // "fulfillment_config.access_url" → "access_url"; "store_variant_ids.0" → "store_variant_ids".
  const parts = param.split('.');
  for (let index = parts.length; index > 0; index -= 1) {
    const candidate = parts.slice(0, index).join('.');
    if (fields.includes(candidate)) return candidate;
    const last = parts[index - 1];
    if (fields.includes(last)) return last;
  }
  return null;
}

/**
 * An API failure split for a form: the message beside the field at fault when the form shows that
 * field, else a message for the whole form.
 */
export function formErrorsOf(error: unknown, fields: readonly string[]): { fields: FieldErrors; form: string | null } {
  if (!error) return { fields: {}, form: null };
  const field = fieldOf(error, fields);
  const message = error instanceof ApiFailure ? plainMessage(error.message) : error instanceof Error ? error.message : String(error);
  if (field) return { fields: { [field]: message }, form: null };
  return { fields: {}, form: describeFailure(error) };
}

/** A failure for people: what went wrong, and for a network failure that nothing was saved. */
export function describeFailure(error: unknown): string {
  if (error instanceof ApiFailure) {
    if (error.code === 'RATE_LIMITED') return 'Too many requests in a minute: wait a moment and try again.';
    if (error.code === 'INVALID_SESSION') return 'Your session has ended: sign in again.';
    return plainMessage(error.message);
  }
  if (error instanceof TypeError) return 'The service could not be reached: check your connection and try again.';
  return error instanceof Error ? error.message : String(error);
}
