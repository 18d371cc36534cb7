import { readFileSync } from 'node:fs';
import path from 'node:path';
import { operationIdFor } from '../../src/swagger/operation-ids';

type Document = { paths: Record<string, Record<string, { operationId?: string }>> };

const document = JSON.parse(readFileSync(path.join(__dirname, '../../openapi.json'), 'utf8')) as Document;
const operationIds = Object.values(document.paths).flatMap((pathItem) => Object.values(pathItem).map((operation) => operation.operationId));

describe('operationIds', () => {
  it('name every operation `<group>.<verb>` in lower camel case, once', () => {
    for (const operationId of operationIds) expect(operationId).toMatch(/^[a-z][a-zA-Z]*\.[a-z][a-zA-Z]*$/);
    expect(new Set(operationIds).size).toBe(operationIds.length);
  });

  it('derive the group from the controller unless the map names the route', () => {
    expect(operationIdFor('WebhookEndpointsController', 'rotateSecret')).toBe('webhookEndpoints.rotateSecret');
    expect(operationIdFor('AdminUsageController', 'usage')).toBe('admin.getUsage');
    expect(operationIds).toEqual(expect.arrayContaining(['entitlements.check', 'customers.listEntitlements', 'admin.getUsage']));
  });
});
