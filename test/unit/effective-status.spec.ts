import {
  boundReached,
  boundReachedSql,
  effectiveStatus,
  effectiveStatusSql,
  hasRunOut,
  notRunOutSql,
  RunOutFields,
  runOutSql,
} from '../../src/entitlements/effective-status';

const NOW = new Date('2026-11-28T12:00:00.000Z');
const at = (offsetMilliseconds: number) => new Date(NOW.getTime() + offsetMilliseconds);
const fields = (overrides: Partial<RunOutFields>): RunOutFields => ({ expires_at: null, usage_count: 0, usage_limit: null, ...overrides });

/**
 * "Ran out" (DESIGN §5): the instant of expires_at counts, and usage_count reaching usage_limit
 * counts. The e2e suite run-out-rule evaluates the SQL forms against the database; this pins the
 * TypeScript predicate and the SQL text each caller embeds.
 */
describe('effective status: when an entitlement has run out', () => {
  describe('time', () => {
    it.each([
      ['no expires_at: never', null, false],
      ['a millisecond before expires_at', at(1), false],
      ['at the instant of expires_at', at(0), true],
      ['after expires_at', at(-1), true],
    ])('%s', (_case, expiresAt, reached) => {
      expect(boundReached('time', fields({ expires_at: expiresAt }), NOW)).toBe(reached);
    });

    it('is measured at `now`, not at the time of the call', () => {
      const entitlement = fields({ expires_at: new Date('2000-01-01T00:00:00.000Z') });
      expect(boundReached('time', entitlement, new Date('1999-12-31T23:59:59.999Z'))).toBe(false);
      expect(boundReached('time', entitlement, new Date('2000-01-01T00:00:00.000Z'))).toBe(true);
    });
  });

  describe('uses', () => {
    it.each([
      ['no usage_limit: never, however many uses', 1_000, null, false],
      ['one use left', 2, 3, false],
      ['the last use taken', 3, 3, true],
      ['more uses than the limit (the limit lowered)', 4, 3, true],
      ['a limit of 0 with no use', 0, 0, true],
    ])('%s', (_case, usageCount, usageLimit, reached) => {
      expect(boundReached('uses', fields({ usage_count: usageCount, usage_limit: usageLimit }), NOW)).toBe(reached);
    });

    it('ignores the time and time ignores the uses', () => {
      expect(boundReached('uses', fields({ expires_at: at(-1), usage_count: 0, usage_limit: 5 }), NOW)).toBe(false);
      expect(boundReached('time', fields({ expires_at: at(1), usage_count: 9, usage_limit: 5 }), NOW)).toBe(false);
    });
  });

  it('has run out when either bound is reached, and only then', () => {
    expect(hasRunOut(fields({}), NOW)).toBe(false);
    expect(hasRunOut(fields({ expires_at: at(1), usage_count: 1, usage_limit: 2 }), NOW)).toBe(false);
    expect(hasRunOut(fields({ expires_at: at(0), usage_count: 1, usage_limit: 2 }), NOW)).toBe(true);
    expect(hasRunOut(fields({ expires_at: at(1), usage_count: 2, usage_limit: 2 }), NOW)).toBe(true);
    expect(hasRunOut(fields({ expires_at: at(-1), usage_count: 2, usage_limit: 2 }), NOW)).toBe(true);
  });

  describe('the status reads report', () => {
    it.each([
      ['active', 'an active one that has run out is expired', fields({ expires_at: at(-1) }), 'expired'],
      ['active', 'an active one with uses used up is expired', fields({ usage_count: 1, usage_limit: 1 }), 'expired'],
      ['active', 'an active one with time and uses left stays active', fields({ expires_at: at(1), usage_count: 0, usage_limit: 1 }), 'active'],
      ['suspended', 'a suspended one keeps its status, run out or not', fields({ expires_at: at(-1) }), 'suspended'],
      ['revoked', 'a revoked one keeps its status', fields({ usage_count: 1, usage_limit: 1 }), 'revoked'],
      ['pending', 'a pending one keeps its status', fields({ expires_at: at(-1) }), 'pending'],
    ])('%s: %s', (status, _case, entitlement, expected) => {
      expect(effectiveStatus({ ...entitlement, status }, NOW)).toBe(expected);
    });
  });

  describe('the SQL forms', () => {
    it('writes each bound as "set, and its measure at least the bound", with or without a table alias', () => {
      expect(boundReachedSql('time', 'e', '$1')).toBe('e.expires_at IS NOT NULL AND $1 >= e.expires_at');
      expect(boundReachedSql('uses', 'e', '$1')).toBe('e.usage_limit IS NOT NULL AND e.usage_count >= e.usage_limit');
      // An index predicate names bare columns.
      expect(boundReachedSql('time', null, 'now()')).toBe('expires_at IS NOT NULL AND now() >= expires_at');
      expect(boundReachedSql('uses', null, 'now()')).toBe('usage_limit IS NOT NULL AND usage_count >= usage_limit');
    });

    it('ran out: either bound, parenthesised so it composes with AND', () => {
      expect(runOutSql('ent', ':now')).toBe(
        '((ent.expires_at IS NOT NULL AND :now >= ent.expires_at) OR (ent.usage_limit IS NOT NULL AND ent.usage_count >= ent.usage_limit))',
      );
    });

    it('not run out: each bound negated on its own', () => {
      expect(notRunOutSql('ent', '$5')).toBe('(ent.expires_at IS NULL OR $5 < ent.expires_at) AND (ent.usage_limit IS NULL OR ent.usage_count < ent.usage_limit)');
    });

    it('the reported status: expired only for an active one that ran out, else the stored one', () => {
      expect(effectiveStatusSql('e', '$2')).toBe(
        "(CASE WHEN e.status = 'active' AND ((e.expires_at IS NOT NULL AND $2 >= e.expires_at) OR (e.usage_limit IS NOT NULL AND e.usage_count >= e.usage_limit)) THEN 'expired' ELSE e.status END)",
      );
    });
  });
});
