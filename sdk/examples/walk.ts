/**
 * Walks every resource group of the SDK against a live service, as a merchant's backend would:
 * every operation is called at least once, with typed inputs and outputs, and each call's result
 * is checked. CI (scripts/sdk-package-check.sh) compiles it strictly (skipLibCheck off) with
 * TypeScript 5.x and 7 against the SDK installed from its `npm pack` tarball, then runs it against
 * the built service on a fresh embedded database. It fails when a group of the SDK is not walked (a
 * group added to the API must be walked here) and lists any operation it did not call.
 *
 * Environment: EH_BASE_URL (the service; also its PUBLIC_BASE_URL) and EH_ADMIN_TOKEN.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createEntitlementDeliveryClient,
  isApiError,
  OPERATIONS,
  type EntitlementDeliveryClient,
  type OperationError,
  type OperationId,
} from '@entitlement-delivery/sdk';
import { checkLicenseOffline } from './verify-license';
import { decideAccess } from './verify-token';

const baseUrl = required('EH_BASE_URL');
const adminToken = required('EH_ADMIN_TOKEN');
const called = new Set<string>();
// Literal paths first: GET /v1/entitlements/check is entitlements.check, not entitlements.get.
const templates = Object.entries(OPERATIONS)
  .map(([id, operation]) => ({
    id,
    method: operation.method,
    parameters: operation.pathParameters.length,
    pattern: new RegExp(`^${operation.path.replace(/\{[^}]+\}/g, '[^/]+').replace(/\./g, '\\.')}$`),
  }))
  .sort((first, second) => first.parameters - second.parameters);

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`walk: ${what}`);
}

/** Records which operation each request was, by method and path template. */
function recordingFetch(request: Request): Promise<Response> {
  const pathname = new URL(request.url).pathname;
  const operation = templates.find((template) => template.method === request.method && template.pattern.test(pathname));
  if (operation) called.add(operation.id);
  return fetch(request);
}

function clientFor(apiKey?: string): EntitlementDeliveryClient {
  return createEntitlementDeliveryClient({ baseUrl, adminToken, ...(apiKey ? { apiKey } : {}), fetch: recordingFetch, initialRetryDelay: 50 });
}

/** A loopback receiver for webhook deliveries (the service runs with WEBHOOK_ALLOW_PRIVATE_URLS). */
async function startReceiver() {
  const deliveries: Array<{ body: string; headers: IncomingHttpHeaders }> = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      deliveries.push({ body: Buffer.concat(chunks).toString('utf8'), headers: request.headers });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, deliveries, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, withinMilliseconds = 15_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - started > withinMilliseconds) throw new Error(`walk: ${what} did not happen within ${withinMilliseconds} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function main(): Promise<void> {
  const operator = clientFor();

  // health
  check((await operator.health.live()).lastResponse.status === 200, 'health.live');
  check((await operator.health.ready()).lastResponse.status === 200, 'health.ready');

  // admin: a merchant of its own, keys for both modes, one revoked
  const { data: merchant } = await operator.admin.createMerchant({ name: 'SDK walk', plan: 'growth' });
  check((await operator.admin.getMerchant(merchant.id)).data.id === merchant.id, 'admin.getMerchant');
  check((await operator.admin.updateMerchant(merchant.id, { plan: 'pro' })).data.plan === 'pro', 'admin.updateMerchant');
  const { data: testKey } = await operator.admin.createApiKey(merchant.id, { mode: 'test', scopes: ['*'], name: 'walk test' });
  const { data: liveKey } = await operator.admin.createApiKey(merchant.id, { mode: 'live', scopes: ['*'], name: 'walk live' });
  const { data: spareKey } = await operator.admin.createApiKey(merchant.id, { mode: 'test', scopes: ['products:read'] });
  check((await operator.admin.revokeApiKey(spareKey.id)).data.revoked_at !== null, 'admin.revokeApiKey');
  check((await operator.admin.listApiKeys(merchant.id)).data.length === 3, 'admin.listApiKeys');
  check((await operator.admin.getUsage(merchant.id)).data.plan === 'pro', 'admin.getUsage');
  const { data: user } = await operator.admin.createDashboardUser(merchant.id, { email: `walk-${Date.now()}@example.com` });
  check(user.setup_url.includes('/dashboard/setup'), 'admin.createDashboardUser');

  const api = clientFor(testKey.key);
  const live = clientFor(liveKey.key);

  // products
  const { data: ebook } = await api.products.create({ name: 'Walk ebook', entitlement_type: 'permanent', store_product_id: 'sku_walk_ebook' });
  const { data: course } = await api.products.create({ name: 'Walk course', entitlement_type: 'time_limited', access_duration_days: 30, store_product_id: 'sku_walk_course' });
  const { data: credits } = await api.products.create({ name: 'Walk credits', entitlement_type: 'usage_limited', usage_limit: 3 });
  const { data: plan } = await api.products.create({ name: 'Walk plan', entitlement_type: 'subscription_linked', store_product_id: 'sku_walk_plan' });
  const { data: retired } = await api.products.create({ name: 'Walk retired', entitlement_type: 'permanent' });
  check((await api.products.get(ebook.id)).data.name === 'Walk ebook', 'products.get');
  check((await api.products.update(ebook.id, { description: 'Updated by the walk' })).data.description === 'Updated by the walk', 'products.update');
  check((await api.products.archive(retired.id)).data.status === 'archived', 'products.archive');
  check((await api.products.list().toArray({ limit: 10 })).length === 5, 'products.list (toArray)');

  // grant rules: the course comes with the ebook
  const { data: rule } = await api.grantRules.create({ trigger_product_id: course.id, grant_product_id: ebook.id });
  check((await api.grantRules.get(rule.id)).data.id === rule.id, 'grantRules.get');
  check((await api.grantRules.update(rule.id, { access_duration_days: 7 })).data.access_duration_days === 7, 'grantRules.update');
  check((await api.grantRules.list()).data.some((listed) => listed.id === rule.id), 'grantRules.list');

  // entitlements and their lifecycle
  const grant = await api.entitlements.create({ store_customer_id: 'walk_customer', product_id: course.id, idempotency_key: 'walk-grant-1' });
  const again = await api.entitlements.create({ store_customer_id: 'walk_customer', product_id: course.id, idempotency_key: 'walk-grant-1' });
  check(again.data.id === grant.data.id && again.lastResponse.idempotentReplayed, 'a body idempotency_key replays');
  const entitlement = grant.data;
  const { data: checked } = await api.entitlements.check({ store_customer_id: 'walk_customer', product_id: course.id });
  check(checked.entitled && checked.entitlement?.id === grant.data.id, 'entitlements.check');
  check((await api.entitlements.get(entitlement.id)).data.id === entitlement.id, 'entitlements.get');
  check((await api.entitlements.update(entitlement.id, { metadata: { seat: 1 } })).data.metadata.seat === 1, 'entitlements.update');
  check((await api.entitlements.suspend(entitlement.id, { reason: 'walk' })).data.status === 'suspended', 'entitlements.suspend');
  check((await api.entitlements.reactivate(entitlement.id)).data.status === 'active', 'entitlements.reactivate');
  const { data: pending } = await api.entitlements.create({ store_customer_id: 'walk_customer', product_id: plan.id, status: 'pending' });
  check((await api.entitlements.activate(pending.id)).data.status === 'active', 'entitlements.activate');
  const { data: metered } = await api.entitlements.create({ store_customer_id: 'walk_customer', product_id: credits.id });
  check((await api.entitlements.recordUsage(metered.id, { quantity: 2 })).data.usage_count === 2, 'entitlements.recordUsage');
  const listed = await api.entitlements.list({ store_customer_id: 'walk_customer', limit: 2 });
  let iterated = 0;
  for await (const item of api.entitlements.list({ store_customer_id: 'walk_customer', limit: 2 })) iterated += item.id ? 1 : 0;
  check(iterated === listed.pagination.total && iterated >= 4, 'entitlements.list (for await across pages)');

  // tokens: verified offline by the example; another mode's and another merchant's refused
  const { data: issued } = await api.entitlements.issueToken(entitlement.id);
  check((await api.entitlements.getSigningKeys()).keys.length >= 1, 'entitlements.getSigningKeys');
  check(typeof (await api.entitlements.getTokenIssuer()).issuer === 'string', 'entitlements.getTokenIssuer');
  const policy = { jwksUrl: `${baseUrl}/.well-known/jwks.json`, merchantId: merchant.id, mode: 'test' as const };
  const own = await decideAccess(policy, issued.token, course.id);
  check(own.allowed && own.claims.sub === entitlement.customer_id && own.claims.aud === `${merchant.id}:test`, 'own token allowed');
  const { data: liveProduct } = await live.products.create({ name: 'Walk live ebook', entitlement_type: 'permanent' });
  const { data: liveGrant } = await live.entitlements.create({ store_customer_id: 'walk_customer', product_id: liveProduct.id });
  const otherMode = await decideAccess(policy, (await live.entitlements.issueToken(liveGrant.id)).data.token, liveProduct.id);
  check(!otherMode.allowed && otherMode.reason === 'WRONG_AUDIENCE', "the live token refused by a test-mode verifier");
  const { data: otherMerchant } = await operator.admin.createMerchant({ name: 'SDK walk, another merchant', plan: 'free' });
  const { data: otherKey } = await operator.admin.createApiKey(otherMerchant.id, { mode: 'test', scopes: ['*'] });
  const other = clientFor(otherKey.key);
  const { data: otherProduct } = await other.products.create({ name: 'Their ebook', entitlement_type: 'permanent' });
  const { data: theirGrant } = await other.entitlements.create({ store_customer_id: 'walk_customer', product_id: otherProduct.id });
  const foreign = await decideAccess(policy, (await other.entitlements.issueToken(theirGrant.id)).data.token, otherProduct.id);
  check(!foreign.allowed && foreign.reason === 'WRONG_AUDIENCE', "another merchant's token refused");
  check((await api.tokens.verify(issued.token, { merchant: merchant.id, mode: 'test' })).id === entitlement.id, 'client.tokens.verify');

  // orders
  const { data: order } = await api.orders.upsert({
    store_order_id: 'walk_order_1',
    store_customer_id: 'walk_customer',
    line_items: [{ store_line_item_id: 'li_1', store_product_id: 'sku_walk_ebook' }],
  });
  check((await api.orders.get(order.id)).data.id === order.id, 'orders.get');
  check((await api.orders.getByStoreId('walk_order_1')).data.id === order.id, 'orders.getByStoreId');
  check((await api.orders.list({ store_customer_id: 'walk_customer' })).pagination.total === 1, 'orders.list');
  check((await api.orders.refund(order.id, { reason: 'walk' })).data.status === 'refunded', 'orders.refund');

  // subscriptions
  const upserted = await api.subscriptions.upsert('walk_sub_1', { store_customer_id: 'walk_customer', store_product_id: 'sku_walk_plan', status: 'active' });
  check(upserted.lastResponse.status === 201, 'subscriptions.upsert');
  check((await api.subscriptions.get(upserted.data.id)).data.id === upserted.data.id, 'subscriptions.get');
  check((await api.subscriptions.getByStoreId('walk_sub_1')).data.id === upserted.data.id, 'subscriptions.getByStoreId');
  check((await api.subscriptions.list({ store_customer_id: 'walk_customer' })).data.length === 1, 'subscriptions.list');

  // files: upload (three steps in one), read, download
  const bytes = new TextEncoder().encode('%PDF-1.7 walk '.repeat(100));
  const uploaded = await api.files.upload({ file_name: 'walk.pdf', file_size: bytes.length, mime_type: 'application/pdf', product_id: ebook.id }, bytes);
  const file = uploaded.data;
  const { data: secondUpload } = await api.files.createUploadUrl({ file_name: 'walk-2.txt', file_size: 4, mime_type: 'text/plain' });
  await fetch(secondUpload.upload_url, { method: 'PUT', headers: secondUpload.upload_headers, body: 'walk' });
  check((await api.files.confirm(secondUpload.file_id)).data.upload_status === 'CONFIRMED', 'files.confirm');
  check((await api.files.get(file.id)).data.id === file.id, 'files.get');
  check((await api.files.list().toArray({ limit: 10 })).length === 2, 'files.list');
  check((await api.files.delete(secondUpload.file_id)).data.deleted, 'files.delete (a file no product delivers)');

  // customers
  const customerId = entitlement.customer_id;
  const { data: ebookGrant } = await api.entitlements.check({ customer_id: customerId, product_id: ebook.id });
  check(ebookGrant.entitled, 'the grant rule granted the ebook');
  check((await api.customers.listEntitlements(customerId)).pagination.total >= 4, 'customers.listEntitlements');
  check((await api.customers.listEntitlementsByStoreId('walk_customer')).pagination.total >= 4, 'customers.listEntitlementsByStoreId');
  const { data: groups } = await api.customers.listDownloads(customerId);
  check(groups.some((group) => group.files.some((listedFile) => listedFile.file_id === file.id)), 'customers.listDownloads');
  check((await api.customers.get(customerId)).data.store_customer_id === 'walk_customer', 'customers.get');
  check((await api.customers.getByStoreId('walk_customer')).data.id === customerId, 'customers.getByStoreId');
  check((await api.customers.list({ search: 'walk_customer' })).data.some((listedCustomer) => listedCustomer.id === customerId), 'customers.list');
  const downloadEntitlement = ebookGrant.entitlement?.id ?? '';
  const { data: download } = await api.files.download(file.id, { entitlement_id: downloadEntitlement, customer_id: customerId });
  check((await fetch(download.download_url)).status === 200, 'files.download URL serves the bytes');

  // imports: CSV and JSON
  const { data: csvImport } = await api.imports.create('store_customer_id,store_product_id\nwalk_imported_1,sku_walk_ebook\n');
  const { data: jsonImport } = await api.imports.create({ rows: [{ store_customer_id: 'walk_imported_2', store_product_id: 'sku_walk_ebook' }] });
  for (const created of [csvImport, jsonImport]) {
    const done = await until(`import ${created.id}`, async () => {
      const { data } = await api.imports.get(created.id);
      return data.status === 'completed' ? data : undefined;
    });
    check(done.granted === 1, `import ${created.id} granted its row`);
  }
  check((await api.imports.list()).pagination.total === 2, 'imports.list');

  // webhook endpoints, events, and a real delivery verified with webhooks.verify
  const receiver = await startReceiver();
  try {
    const { data: endpoint } = await api.webhookEndpoints.create({ url: receiver.url, enabled_events: ['product.created'] });
    check((await api.webhookEndpoints.get(endpoint.id)).data.id === endpoint.id, 'webhookEndpoints.get');
    check((await api.webhookEndpoints.list()).data.some((listedEndpoint) => listedEndpoint.id === endpoint.id), 'webhookEndpoints.list');
    check((await api.webhookEndpoints.update(endpoint.id, { description: 'walk' })).data.description === 'walk', 'webhookEndpoints.update');
    const { data: announced } = await api.products.create({ name: 'Walk announced', entitlement_type: 'permanent' });
    const delivery = await until('a webhook delivery', () => receiver.deliveries[0]);
    const event = await api.webhooks.verify(delivery.body, delivery.headers, endpoint.secret);
    check(event.type === 'product.created' && JSON.stringify(event.data).includes(announced.id), 'webhooks.verify on a real delivery');
    const rotated = await api.webhookEndpoints.rotateSecret(endpoint.id);
    check(rotated.data.secret !== endpoint.secret, 'webhookEndpoints.rotateSecret');
    const events = await api.events.list({ type: 'product.created' });
    const first = events.data[0];
    check(first !== undefined, 'events.list');
    check((await api.events.get(first?.id ?? '')).data.id === first?.id, 'events.get');
    check((await api.events.redeliver(event.id, { endpoint_id: endpoint.id })).lastResponse.status === 202, 'events.redeliver');
    await until('the redelivery', () => (receiver.deliveries.length >= 2 ? true : undefined));
    check((await api.events.listDeliveries(event.id)).data.length >= 1, 'events.listDeliveries');
    check((await api.webhookEndpoints.test(endpoint.id)).data.event_type === 'webhook_endpoint.test', 'webhookEndpoints.test');
    check((await api.webhookEndpoints.listDeliveries(endpoint.id)).data.length >= 1, 'webhookEndpoints.listDeliveries');
    check((await api.webhookEndpoints.delete(endpoint.id)).data.deleted, 'webhookEndpoints.delete');
  } finally {
    await receiver.close();
  }

  // revoke last (the grant rule's child follows its parent), then delete the rule
  check((await api.entitlements.revoke(entitlement.id, { reason: 'walk done' })).data.status === 'revoked', 'entitlements.revoke');
  check((await api.grantRules.delete(rule.id)).data.deleted, 'grantRules.delete');

  // test clocks: day 31 of a 30-day grant without waiting 30 days (DESIGN §14)
  const frozenAt = new Date(Date.UTC(2030, 0, 1));
  const { data: clock } = await api.testClocks.create({ frozen_time: frozenAt.toISOString(), name: 'walk' });
  const { data: clocked } = await api.entitlements.create({ store_customer_id: 'walk_clock_customer', product_id: course.id, test_clock: clock.id });
  check(clocked.expires_at === new Date(frozenAt.getTime() + 30 * 86_400_000).toISOString(), 'a grant on the clock expires 30 days after its frozen time');
  check((await api.testClocks.get(clock.id)).data.status === 'ready', 'testClocks.get');
  check((await api.testClocks.list()).data.some((listedClock) => listedClock.id === clock.id), 'testClocks.list');
  const { data: advanced } = await api.testClocks.advance(clock.id, { frozen_time: new Date(frozenAt.getTime() + 31 * 86_400_000).toISOString() });
  check(advanced.status === 'ready', 'testClocks.advance');
  check(!(await api.entitlements.check({ store_customer_id: 'walk_clock_customer', product_id: course.id })).data.entitled, 'day 31 of a 30-day grant: not entitled');
  check((await api.testClocks.delete(clock.id)).data.deleted, 'testClocks.delete');

  // licenses: a desktop app sold with 3 seats per purchase (DESIGN §18); the app's calls carry no API key
  const { data: desktop } = await api.products.create({ name: 'Walk desktop app', entitlement_type: 'permanent', license: { activation_limit: 3 } });
  const { data: purchase } = await api.entitlements.create({ store_customer_id: 'walk_license_customer', product_id: desktop.id });
  const licenseKey = (await api.licenseKeys.list({ entitlement_id: purchase.id })).data[0];
  if (!licenseKey) throw new Error('walk: a grant of a licensed product issues a key (licenseKeys.list)');
  check((await api.licenseKeys.get(licenseKey.id)).data.key === licenseKey.key, 'licenseKeys.get');
  const customerApp = clientFor();
  const key = licenseKey.key;
  check((await customerApp.licenses.validate({ key })).data.code === 'VALID', 'licenses.validate');
  const licenseFiles: string[] = [];
  for (const fingerprint of ['walk-machine-1', 'walk-machine-2', 'walk-machine-3']) licenseFiles.push((await customerApp.licenses.activate({ key, fingerprint })).data.license_file);
  try {
    await customerApp.licenses.activate({ key, fingerprint: 'walk-machine-4' });
    check(false, 'a fourth machine must be refused');
  } catch (error: unknown) {
    check(isApiError(error, 'ACTIVATION_LIMIT_REACHED'), 'a typed ACTIVATION_LIMIT_REACHED');
  }
  check((await customerApp.licenses.heartbeat({ key, fingerprint: 'walk-machine-1' })).data.activation.fingerprint === 'walk-machine-1', 'licenses.heartbeat');
  check((await customerApp.licenses.deactivate({ key, fingerprint: 'walk-machine-2' })).data.deactivated, 'licenses.deactivate');
  check((await customerApp.licenses.activate({ key, fingerprint: 'walk-machine-4' })).lastResponse.status === 201, 'a freed seat is taken');
  const licensePolicy = { jwksUrl: `${baseUrl}/.well-known/jwks.json`, merchantId: merchant.id, mode: 'test' as const };
  check((await checkLicenseOffline(licensePolicy, licenseFiles[0] ?? '', 'walk-machine-1')).licensed, 'a license file verifies offline on its machine');
  const copied = await checkLicenseOffline(licensePolicy, licenseFiles[0] ?? '', 'walk-machine-2');
  check(!copied.licensed && copied.reason === 'WRONG_MACHINE', 'a license file is refused on another machine');
  const { data: devices } = await api.licenseKeys.listActivations(licenseKey.id);
  check(devices.length === 3, 'licenseKeys.listActivations');
  check((await api.licenseKeys.deleteActivation(licenseKey.id, devices[0]?.id ?? '')).data.deleted, 'licenseKeys.deleteActivation');
  check((await api.licenseKeys.update(licenseKey.id, { activation_limit: 5 })).data.activation_limit === 5, 'licenseKeys.update');
  await api.entitlements.revoke(purchase.id, { reason: 'walk refund' });
  check((await customerApp.licenses.validate({ key })).data.code === 'REVOKED', 'a revoked purchase: REVOKED');

  // usage and statements (DESIGN §17): the month so far, and the operator's close of an ended month
  check((await api.usage.get()).lastResponse.status === 200, 'usage.get');
  const now = new Date();
  const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  check((await operator.adminStatements.close({ month: lastMonth })).lastResponse.status === 200, 'adminStatements.close');
  check((await operator.adminStatements.list({ month: lastMonth })).lastResponse.status === 200, 'adminStatements.list');
  const { data: statements } = await api.usage.list();
  const statement = statements[0];
  if (statement) check((await api.usage.getStatement(statement.id)).data.id === statement.id, 'usage.getStatement');

  // the dashboard's daily tools through the API: the deliveries log, the audit log, search (issue 34)
  check((await api.webhookDeliveries.list()).lastResponse.status === 200, 'webhookDeliveries.list');
  check((await api.auditLog.list({ object_id: purchase.id })).data.some((row) => row.action === 'entitlements.revoke'), 'auditLog.list names the revoke');
  check((await api.search.search({ q: purchase.id })).data.some((hit) => hit.id === purchase.id), 'search.search finds an entitlement by id');

  // the customer portal (DESIGN §19): a one-time link for a customer, and the branding
  const { data: portalLink } = await api.portalSessions.create({ customer_id: purchase.customer_id });
  check(portalLink.url.includes('/portal/open/'), 'portalSessions.create');
  check((await api.portalSettings.update({ display_name: 'Walk shop' })).data.display_name === 'Walk shop', 'portalSettings.update');
  check((await api.portalSettings.get()).data.display_name === 'Walk shop', 'portalSettings.get');

  // typed errors: a code the operation documents
  try {
    await api.orders.get('ord_01jd8x3k2m4n5p6q7r8s9t0v1w');
    check(false, 'orders.get of an unknown id must throw');
  } catch (error: unknown) {
    check(isApiError(error, 'ORDER_NOT_FOUND') && (error as OperationError<'orders.get'>).status === 404, 'a typed ORDER_NOT_FOUND');
  }

  const groupsOf = (ids: Iterable<string>) => new Set([...ids].map((id) => id.split('.')[0]));
  const allIds = Object.keys(OPERATIONS) as OperationId[];
  const missingGroups = [...groupsOf(allIds)].filter((group) => !groupsOf(called).has(group));
  const missingOperations = allIds.filter((id) => !called.has(id));
  console.log(JSON.stringify({ walked: called.size, operations: allIds.length, groups: groupsOf(allIds).size, not_walked: missingOperations }));
  if (missingGroups.length > 0) throw new Error(`walk: groups never called: ${missingGroups.join(', ')} (add them to sdk/examples/walk.ts)`);
  if (missingOperations.length > 0) console.warn(`walk: operations not called yet (add them to sdk/examples/walk.ts): ${missingOperations.join(', ')}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
