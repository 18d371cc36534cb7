import { DataSource } from 'typeorm';
import { EntitlementExpirySweeper } from '../../src/entitlements/entitlement-expiry.sweeper';
import { entitlementSuite, countEvents, grant } from '../support/entitlement-fixtures';
import { bearer } from '../support/test-app';

const HOUR = 60 * 60 * 1000;

type StartState = 'active' | 'suspended' | 'revoked' | 'pending' | 'expired (not yet swept)' | 'expired (swept)';
type Operation = 'suspend' | 'revoke' | 'reactivate' | 'activate' | 'update' | 'use';

/** DESIGN §5, written out independently of src/entitlements/entitlement-state-machine.ts. */
const EXPECTED: Record<StartState, Partial<Record<Operation, string>>> = {
  active: { suspend: 'suspended', revoke: 'revoked', update: 'active', use: 'active' },
  suspended: { revoke: 'revoked', reactivate: 'active', update: 'suspended' },
  revoked: {},
  pending: { revoke: 'revoked', activate: 'active', update: 'pending' },
  'expired (not yet swept)': { reactivate: 'active', update: 'expired' },
  'expired (swept)': { reactivate: 'active', update: 'expired' },
};

const EVENT: Record<Operation, string> = {
  suspend: 'entitlement.suspended',
  revoke: 'entitlement.revoked',
  reactivate: 'entitlement.reactivated',
  activate: 'entitlement.activated',
  update: 'entitlement.updated',
  use: 'entitlement.updated',
};

const STATES = Object.keys(EXPECTED) as StartState[];
const OPERATIONS: Operation[] = ['suspend', 'revoke', 'reactivate', 'activate', 'update', 'use'];
const CASES = STATES.flatMap((state) => OPERATIONS.map((operation) => [state, operation] as const));

describe('entitlement state machine over HTTP: every (status, operation) pair', () => {
  const suite = entitlementSuite('test');

  async function entitlementIn(state: StartState): Promise<string> {
    const key = bearer(suite.tenant.testKey);
    const base = { store_customer_id: `cust_${state}`, product_id: suite.product.id };
    if (state === 'pending') return (await grant(suite.testApp, suite.tenant.testKey, { ...base, status: 'pending' })).id;
    if (state.startsWith('expired')) {
      const { id } = await grant(suite.testApp, suite.tenant.testKey, { ...base, expires_at: new Date(suite.clock.now().getTime() + HOUR).toISOString() });
      suite.clock.advance(2 * HOUR);
      if (state === 'expired (swept)') await suite.testApp.app.get(EntitlementExpirySweeper).sweep();
      return id;
    }
    const { id } = await grant(suite.testApp, suite.tenant.testKey, base);
    if (state === 'suspended') await suite.testApp.http.post(`/v1/entitlements/${id}/suspend`).set(key).send({}).expect(200);
    if (state === 'revoked') await suite.testApp.http.post(`/v1/entitlements/${id}/revoke`).set(key).send({}).expect(200);
    return id;
  }

  function request(id: string, operation: Operation) {
    const key = bearer(suite.tenant.testKey);
    const later = new Date(suite.clock.now().getTime() + 10 * HOUR).toISOString();
    if (operation === 'update') return suite.testApp.http.patch(`/v1/entitlements/${id}`).set(key).send({ metadata: { touched: true } });
    const body = operation === 'reactivate' ? { expires_at: later } : {};
    const path = operation === 'use' ? 'usage' : operation;
    return suite.testApp.http.post(`/v1/entitlements/${id}/${path}`).set(key).send(body);
  }

  it.each(CASES)('%s + %s', async (state, operation) => {
    const id = await entitlementIn(state);
    const statusBefore = state.startsWith('expired') ? 'expired' : state;
    const expected = EXPECTED[state][operation];
    const response = await request(id, operation);
    if (expected === undefined) {
      expect(response.status).toBe(409);
      expect(response.body.error).toMatchObject({
        type: 'conflict_error',
        code: 'INVALID_STATUS_TRANSITION',
        message: `Cannot ${operation} an entitlement that is ${statusBefore}`,
      });
      const after = await suite.testApp.http.get(`/v1/entitlements/${id}`).set(bearer(suite.tenant.testKey)).expect(200);
      expect(after.body.data.status).toBe(statusBefore);
      return;
    }
    expect(response.status).toBe(200);
    expect(response.body.data.status).toBe(expected);
    expect(await countEvents(suite.testApp, EVENT[operation], id)).toBe(1);
    // An expiry not swept yet is recorded (once) by the operation itself.
    if (state.startsWith('expired')) expect(await countEvents(suite.testApp, 'entitlement.expired', id)).toBe(1);
    const stored: { status: string }[] = await suite.testApp.app.get(DataSource).query('SELECT status FROM entitlements WHERE id = $1', [id]);
    expect(stored[0].status).toBe(expected);
  });
});
