import { pathObject } from '../../src/auth/request-audit';
import { AuditContext, auditObjectOf, objectTypeOfId } from '../../src/database/audit-trail';
import { StatusResult } from '../../src/envelope/status-result';
import { generateId } from '../../src/ids/id';

const context = (object: AuditContext['object']): AuditContext => ({
  merchantId: 'mer_1',
  mode: 'test',
  actor: { type: 'api_key', id: 'key_1', label: 'eh_test_AbCd' },
  action: 'entitlements.create',
  object,
  requestId: 'req_1',
  clientAddress: '127.0.0.1',
});

describe('the audit log\'s objects', () => {
  const entitlementId = generateId('ent');
  const userId = generateId('user');

  it('names an id by its prefix, and nothing else', () => {
    expect(objectTypeOfId(entitlementId)).toBe('entitlement');
    expect(objectTypeOfId(generateId('we'))).toBe('webhook_endpoint');
    expect(objectTypeOfId('store_customer_42')).toBeNull();
    expect(objectTypeOfId('plain')).toBeNull();
  });

  it('reads the object from the path: its first id, else its collection', () => {
    expect(pathObject(`/v1/entitlements/${entitlementId}/revoke`)).toEqual({ type: 'entitlement', id: entitlementId });
    expect(pathObject('/v1/products?limit=2')).toEqual({ type: 'product', id: null });
    expect(pathObject('/v1/webhook-endpoints')).toEqual({ type: 'webhook_endpoint', id: null });
    expect(pathObject(`/dashboard/api/team/${userId}`)).toEqual({ type: 'dashboard_user', id: userId });
    expect(pathObject('/dashboard/api/api-keys')).toEqual({ type: 'api_key', id: null });
  });

  it('prefers the record a write returns (an upsert\'s body too), else the path\'s', () => {
    expect(auditObjectOf(context({ type: 'entitlement', id: null }), { id: entitlementId, status: 'active' })).toEqual({ type: 'entitlement', id: entitlementId });
    expect(auditObjectOf(context({ type: 'order', id: null }), new StatusResult(201, { id: generateId('ord') })).type).toBe('order');
    const fileId = generateId('file');
    expect(auditObjectOf(context({ type: 'file', id: fileId }), { url: 'https://example.com/x' })).toEqual({ type: 'file', id: fileId });
    expect(auditObjectOf(context(null), undefined)).toEqual({ type: 'unknown', id: null });
  });
});
