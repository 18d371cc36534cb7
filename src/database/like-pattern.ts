/**
 * LIKE patterns from user input: `\`, `%` and `_` are escaped with the backslash (PostgreSQL's
 * default escape character for LIKE and ILIKE), so a search for `50%_off` matches those characters only.
 */
const escapeLike = (value: string): string => value.replace(/[\\%_]/g, (character) => `\\${character}`);

/** Values that start with `value` (indexable with a `text_pattern_ops` index). */
export const likePrefix = (value: string): string => `${escapeLike(value)}%`;

/** Values that contain `value`. */
export const likeContains = (value: string): string => `%${escapeLike(value)}%`;
