import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { FileFixtures, putObject } from '../support/file-fixtures';
import { freePort } from '../support/free-port';
import { bearer, createTestApp, TEST_ADMIN_TOKEN, TestApp, TestTenant } from '../support/test-app';

const PDF = 'application/pdf';
const MB = 1024 * 1024;

/** DELETE /v1/files/{id} (issue 24 item 4): PENDING files go with their reservation, links and bytes; CONFIRMED ones only when unlinked. */
describe('deleting files', () => {
  let testApp: TestApp;
  let fixtures: FileFixtures;
  let tenant: TestTenant;
  const key = () => bearer(tenant.testKey);

  beforeAll(async () => {
    const port = await freePort();
    testApp = await createTestApp({ PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
    await testApp.app.listen(port, '127.0.0.1');
    fixtures = new FileFixtures(testApp);
    tenant = await testApp.createTenant('free');
  });
  afterAll(() => testApp.close());

  const usage = async () => (await testApp.http.get(`/admin/v1/merchants/${tenant.merchantId}/usage`).set(bearer(TEST_ADMIN_TOKEN)).expect(200)).body.data.usage.test;
  const objectPath = (fileId: string) => path.join(testApp.dataDirectory, 'objects', tenant.merchantId, 'test', fileId);
  const fileIdsOf = async (productId: string) => (await testApp.http.get(`/v1/products/${productId}`).set(key()).expect(200)).body.data.fulfillment_config.file_ids as string[];

  it('deletes a PENDING file: its reservation frees the plan, its product drops it, its bytes and upload URL are gone', async () => {
    const product = await fixtures.product(tenant.merchantId, 'test');
    // 90 MB reserved of the free plan's 100 MB (files of at most 50 MB): a third 45 MB upload does not fit.
    const big = await fixtures.uploadUrl(tenant.testKey, { file_name: 'big.pdf', file_size: 45 * MB, mime_type: PDF, product_id: product.id });
    const other = await fixtures.uploadUrl(tenant.testKey, { file_name: 'other.pdf', file_size: 45 * MB, mime_type: PDF });
    expect((await usage()).storage_reserved_bytes).toBe(90 * MB);
    const refused = await testApp.http.post('/v1/files/upload-url').set(key()).send({ file_name: 'second.pdf', file_size: 45 * MB, mime_type: PDF }).expect(402);
    expect(refused.body.error.code).toBe('STORAGE_LIMIT_REACHED');
    expect(await fileIdsOf(product.id)).toEqual([big.fileId]);

    const deleted = await testApp.http.delete(`/v1/files/${big.fileId}`).set(key()).expect(200);
    expect(deleted.body.data).toEqual({ id: big.fileId, deleted: true });
    expect((await testApp.http.get(`/v1/files/${big.fileId}`).set(key()).expect(404)).body.error.code).toBe('FILE_NOT_FOUND');
    expect((await usage()).storage_reserved_bytes).toBe(45 * MB);
    expect(await fileIdsOf(product.id)).toEqual([]);
    const events = await testApp.http.get('/v1/events').query({ object_id: product.id, type: 'product.updated' }).set(key()).expect(200);
    expect(events.body.data[0].data.object.fulfillment_config.file_ids).toEqual([]);
    const second = await fixtures.uploadUrl(tenant.testKey, { file_name: 'second.pdf', file_size: 45 * MB, mime_type: PDF });
    for (const fileId of [other.fileId, second.fileId]) await testApp.http.delete(`/v1/files/${fileId}`).set(key()).expect(200);
    expect((await usage()).storage_reserved_bytes).toBe(0);

    // A file whose bytes were uploaded but not confirmed: the object goes too, and its URL takes no more bytes.
    const uploaded = await fixtures.uploadUrl(tenant.testKey, { file_name: 'small.pdf', file_size: 8, mime_type: PDF });
    expect((await putObject(uploaded.uploadUrl, Buffer.from('%PDF-1.7'), PDF)).status).toBe(200);
    expect(existsSync(objectPath(uploaded.fileId))).toBe(true);
    await testApp.http.delete(`/v1/files/${uploaded.fileId}`).set(key()).expect(200);
    expect(existsSync(objectPath(uploaded.fileId))).toBe(false);
    expect((await putObject(uploaded.uploadUrl, Buffer.from('%PDF-1.7'), PDF)).status).toBe(409);
    expect((await testApp.http.post(`/v1/files/${uploaded.fileId}/confirm`).set(key()).expect(404)).body.error.code).toBe('FILE_NOT_FOUND');
    await testApp.http.delete(`/v1/files/${uploaded.fileId}`).set(key()).expect(404);
  });

  it('refuses a CONFIRMED file while a product delivers it (409 FILE_IN_USE), and deletes it once unlinked, releasing its storage', async () => {
    const product = await fixtures.product(tenant.merchantId, 'test');
    const bytes = Buffer.from('%PDF-1.7 confirmed '.repeat(50));
    const upload = await fixtures.uploadUrl(tenant.testKey, { file_name: 'kept.pdf', file_size: bytes.length, mime_type: PDF, product_id: product.id });
    expect((await putObject(upload.uploadUrl, bytes, PDF)).status).toBe(200);
    await testApp.http.post(`/v1/files/${upload.fileId}/confirm`).set(key()).expect(200);
    const usedBefore = (await usage()).storage_used_bytes as number;

    const inUse = await testApp.http.delete(`/v1/files/${upload.fileId}`).set(key()).expect(409);
    expect(inUse.body.error).toMatchObject({ code: 'FILE_IN_USE', type: 'conflict_error' });
    expect(inUse.body.error.message).toContain(product.id);
    expect(existsSync(objectPath(upload.fileId))).toBe(true);
    expect((await usage()).storage_used_bytes).toBe(usedBefore);

    await testApp.http.patch(`/v1/products/${product.id}`).set(key()).send({ fulfillment_config: { delivery_method: 'FILE', file_ids: [] } }).expect(200);
    await testApp.http.delete(`/v1/files/${upload.fileId}`).set(key()).expect(200);
    expect((await usage()).storage_used_bytes).toBe(usedBefore - bytes.length);
    expect(existsSync(objectPath(upload.fileId))).toBe(false);
    await testApp.http.get(`/v1/files/${upload.fileId}`).set(key()).expect(404);
  });

  it("answers 404 for other merchants' and the other mode's files, and needs files:write", async () => {
    const other = await testApp.createTenant();
    const theirs = await fixtures.uploadUrl(other.testKey, { file_name: 'theirs.pdf', file_size: 10, mime_type: PDF });
    const live = await fixtures.uploadUrl(tenant.liveKey, { file_name: 'live.pdf', file_size: 10, mime_type: PDF });
    for (const fileId of [theirs.fileId, live.fileId, 'file_01jd8x3k2m4n5p6q7r8s9t0v1w', 'not-a-file']) {
      expect((await testApp.http.delete(`/v1/files/${fileId}`).set(key()).expect(404)).body.error.code).toBe('FILE_NOT_FOUND');
    }
    await testApp.http.get(`/v1/files/${theirs.fileId}`).set(bearer(other.testKey)).expect(200);
    const reader = await testApp.createKey(tenant.merchantId, 'live', ['files:read']);
    const forbidden = await testApp.http.delete(`/v1/files/${live.fileId}`).set(bearer(reader)).expect(403);
    expect(forbidden.body.error.message).toContain('files:write');
    await testApp.http.delete(`/v1/files/${live.fileId}`).set(bearer(tenant.liveKey)).expect(200);
  });
});
