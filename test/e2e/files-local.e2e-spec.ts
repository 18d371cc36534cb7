import { INestApplication } from '@nestjs/common';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { Clock } from '../../src/clock/clock';
import { EventEntity } from '../../src/webhooks/event.entity';
import type { Response } from 'supertest';
import { FileFixtures, putObject, withFileRowLocked } from '../support/file-fixtures';
import { freePort } from '../support/free-port';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

const PDF = 'application/pdf';

describe('files on the local storage driver', () => {
  let testApp: TestApp;
  let app: INestApplication;
  let fixtures: FileFixtures;
  let tenant: TestTenant;
  let clock: Clock;

  beforeAll(async () => {
    const port = await freePort();
    testApp = await createTestApp({ PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
    app = testApp.app;
    await app.listen(port, '127.0.0.1');
    fixtures = new FileFixtures(testApp);
    tenant = await testApp.createTenant('free');
    clock = app.get(Clock);
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(() => testApp.close());

  async function uploadAndConfirm(key: string, merchantId: string, mode: 'live' | 'test', bytes: Buffer, name = 'guide.pdf') {
    const product = await fixtures.product(merchantId, mode);
    const upload = await fixtures.uploadUrl(key, { file_name: name, file_size: bytes.length, mime_type: PDF, product_id: product.id });
    expect((await putObject(upload.uploadUrl, bytes, PDF)).status).toBe(200);
    await testApp.http.post(`/v1/files/${upload.fileId}/confirm`).set(bearer(key)).expect(200);
    return { product, fileId: upload.fileId };
  }

  it('uploads with a plain PUT, confirms, links to the product and downloads the same bytes', async () => {
    const product = await fixtures.product(tenant.merchantId, 'test');
    const bytes = Buffer.from('%PDF-1.7 the field guide '.repeat(100));
    const created = await testApp.http
      .post('/v1/files/upload-url')
      .set(bearer(tenant.testKey))
      .send({ file_name: 'Résumé final.pdf', file_size: bytes.length, mime_type: PDF, product_id: product.id })
      .expect(201);
    const data = created.body.data;
    expect(data).toMatchObject({
      file_id: expect.stringMatching(/^file_/),
      upload_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/storage\/mer_[0-9a-z]+\/test\/file_[0-9a-z]+\?token=/),
      upload_headers: { 'Content-Type': PDF },
      file: { id: data.file_id, file_name: 'Résumé final.pdf', file_size: bytes.length, mime_type: PDF, upload_status: 'PENDING', download_count: 0, product_id: product.id },
    });
    // The object key is the server's, never the user's name.
    expect(data.upload_url).not.toContain('sum');
    expect(new Date(data.expires_at).getTime() - new Date(data.file.created_at).getTime()).toBeGreaterThan(59 * 60 * 1000);

    const put = await putObject(data.upload_url, bytes, PDF);
    expect(put.status).toBe(200);

    const confirmed = await testApp.http.post(`/v1/files/${data.file_id}/confirm`).set(bearer(tenant.testKey)).expect(200);
    expect(confirmed.body.data).toMatchObject({ id: data.file_id, upload_status: 'CONFIRMED', file_size: bytes.length, download_count: 0, product_id: product.id });
    expect(confirmed.body.data.updated_at).toEqual(expect.any(String));

    const productRead = await testApp.http.get(`/v1/products/${product.id}`).set(bearer(tenant.testKey)).expect(200);
    expect(productRead.body.data.fulfillment_config.file_ids).toEqual([data.file_id]);

    const customer = await fixtures.customer(tenant.merchantId, 'test');
    const entitlement = await fixtures.entitlement(tenant.merchantId, 'test', customer.id, product.id);
    const download = await testApp.http
      .get(`/v1/files/${data.file_id}/download`)
      .query({ entitlement_id: entitlement.id, customer_id: customer.id })
      .set(bearer(tenant.testKey))
      .expect(200);
    expect(download.body.data).toMatchObject({
      download_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/storage\//),
      download: { id: expect.stringMatching(/^dl_/), file_id: data.file_id, entitlement_id: entitlement.id, customer_id: customer.id },
    });
    const got = await fetch(download.body.data.download_url);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    expect(got.headers.get('content-type')).toBe(PDF);
    expect(got.headers.get('content-disposition')).toBe(`attachment; filename="R_sum_ final.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20final.pdf`);

    const file = await testApp.http.get(`/v1/files/${data.file_id}`).set(bearer(tenant.testKey)).expect(200);
    expect(file.body.data.download_count).toBe(1);
    const events = await app.get(DataSource).manager.find(EventEntity, { where: { merchant_id: tenant.merchantId } });
    // Linking through upload-url is a product change, and a download's use is an entitlement change.
    expect(events.map((event) => event.type).sort()).toEqual(['download.completed', 'entitlement.updated', 'file.uploaded', 'product.updated']);
    const usage = await testApp.http.get(`/admin/v1/merchants/${tenant.merchantId}/usage`).set(bearer('test-admin-token-0123456789abcdef')).expect(200);
    expect(usage.body.data.usage.test).toMatchObject({ storage_used_bytes: bytes.length, storage_reserved_bytes: 0, bandwidth_bytes: bytes.length, overage_bytes: 0 });
    expect(usage.body.data.usage.live).toEqual({ storage_used_bytes: 0, storage_reserved_bytes: 0, bandwidth_bytes: 0, overage_bytes: 0 });
  });

  it('answers a browser on another origin like a presigned S3 URL: the CORS preflight and the PUT allow any origin, no credentials', async () => {
    const upload = await fixtures.uploadUrl(tenant.testKey, { file_name: 'cors.pdf', file_size: 4, mime_type: PDF });
    const origin = { Origin: 'http://localhost:5173' };
    const preflight = await fetch(upload.uploadUrl, { method: 'OPTIONS', headers: { ...origin, 'Access-Control-Request-Method': 'PUT', 'Access-Control-Request-Headers': 'content-type' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PUT');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    const put = await fetch(upload.uploadUrl, { method: 'PUT', headers: { ...origin, 'Content-Type': PDF }, body: Buffer.from('%PDF') });
    expect(put.status).toBe(200);
    expect(put.headers.get('access-control-allow-origin')).toBe('*');
  });

  describe('upload-url validation', () => {
    const valid = { file_name: 'a.pdf', file_size: 10, mime_type: PDF };
    it.each([
      ['missing file_name', { file_size: 10, mime_type: PDF }],
      ['empty file_name', { ...valid, file_name: '' }],
      ['256-character file_name', { ...valid, file_name: `${'a'.repeat(252)}.pdf` }],
      ['slash', { ...valid, file_name: 'dir/a.pdf' }],
      ['backslash', { ...valid, file_name: 'dir\\a.pdf' }],
      ['dot-dot', { ...valid, file_name: '..pdf' }],
      ['control character', { ...valid, file_name: 'a\u0007.pdf' }],
      ['NUL', { ...valid, file_name: 'a\u0000.pdf' }],
      ['right-to-left override', { ...valid, file_name: 'invoice\u202Efdp.exe' }],
      ['left-to-right embedding', { ...valid, file_name: 'a\u202A.pdf' }],
      ['first strong isolate', { ...valid, file_name: 'a\u2068.pdf' }],
      ['pop directional isolate', { ...valid, file_name: 'a\u2069.pdf' }],
      ['a single dot', { ...valid, file_name: '.' }],
      ['only dots', { ...valid, file_name: '...' }],
      ['only spaces', { ...valid, file_name: '   ' }],
      ['dots and spaces', { ...valid, file_name: ' . ' }],
      ['missing file_size', { file_name: 'a.pdf', mime_type: PDF }],
      ['string file_size', { ...valid, file_size: '10' }],
      ['fractional file_size', { ...valid, file_size: 1.5 }],
      ['zero file_size', { ...valid, file_size: 0 }],
      ['missing mime_type', { file_name: 'a.pdf', file_size: 10 }],
      ['unlisted mime_type', { ...valid, mime_type: 'application/x-msdownload' }],
      ['old Office mime_type', { ...valid, mime_type: 'application/msword' }],
    ])('%s → 400 MISSING_REQUIRED_FIELD', async (_name, body) => {
      const response = await testApp.http.post('/v1/files/upload-url').set(bearer(tenant.testKey)).send(body).expect(400);
      expect(response.body.error).toMatchObject({ code: 'MISSING_REQUIRED_FIELD', type: 'invalid_request_error' });
    });

    it('keeps names with single dots, leading dots and non-Latin text', async () => {
      for (const name of ['.hidden', 'v1.2.final.pdf', 'Übersicht 2026.pdf', '報告.pdf', 'a . b.pdf']) {
        await fixtures.uploadUrl(tenant.testKey, { ...valid, file_name: name });
      }
    });

    it('refuses a product that does not deliver by FILE with 400 INVALID_PARAMETER naming product_id', async () => {
      for (const fulfillment of [
        { delivery_method: 'URL', access_url: 'https://example.com/course' },
        { delivery_method: 'INSTRUCTIONS', access_instructions: 'Use the code in your email' },
      ]) {
        const product = await testApp.http
          .post('/v1/products')
          .set(bearer(tenant.testKey))
          .send({ name: 'Not a download', entitlement_type: 'permanent', fulfillment_config: fulfillment })
          .expect(201);
        const refused = await testApp.http.post('/v1/files/upload-url').set(bearer(tenant.testKey)).send({ ...valid, product_id: product.body.data.id }).expect(400);
        expect(refused.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'product_id' });
        expect(refused.body.error.message).toContain(fulfillment.delivery_method);
        const unchanged = await testApp.http.get(`/v1/products/${product.body.data.id}`).set(bearer(tenant.testKey)).expect(200);
        expect(unchanged.body.data.fulfillment_config.file_ids).toEqual([]);
      }
    });

    it('accepts 255 characters, the OpenXML types, and refuses unknown fields', async () => {
      await fixtures.uploadUrl(tenant.testKey, { ...valid, file_name: `${'a'.repeat(251)}.pdf` });
      for (const mimeType of [
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      ]) {
        await fixtures.uploadUrl(tenant.testKey, { ...valid, mime_type: mimeType });
      }
      const unknown = await testApp.http.post('/v1/files/upload-url').set(bearer(tenant.testKey)).send({ ...valid, colour: 'red' }).expect(400);
      expect(unknown.body.error.code).toBe('INVALID_PARAMETER');
    });

    it('FILE_TOO_LARGE over the plan max, PRODUCT_NOT_FOUND for unknown or malformed products', async () => {
      const tooLarge = await testApp.http
        .post('/v1/files/upload-url')
        .set(bearer(tenant.testKey))
        .send({ ...valid, file_size: 50 * 2 ** 20 + 1 })
        .expect(400);
      expect(tooLarge.body.error.code).toBe('FILE_TOO_LARGE');
      for (const productId of ['prod_01jd8x3k2m4n5p6q7r8s9t0v1w', 'nonsense']) {
        const missing = await testApp.http
          .post('/v1/files/upload-url')
          .set(bearer(tenant.testKey))
          .send({ ...valid, product_id: productId })
          .expect(404);
        expect(missing.body.error.code).toBe('PRODUCT_NOT_FOUND');
      }
    });
  });

  describe('confirm', () => {
    it('FILE_NOT_FOUND for unknown and malformed ids; UPLOAD_NOT_CONFIRMED without an object; FILE_ALREADY_CONFIRMED on a second confirm', async () => {
      for (const id of ['file_01jd8x3k2m4n5p6q7r8s9t0v1w', 'abc']) {
        const response = await testApp.http.post(`/v1/files/${id}/confirm`).set(bearer(tenant.testKey)).expect(404);
        expect(response.body.error.code).toBe('FILE_NOT_FOUND');
      }
      const upload = await fixtures.uploadUrl(tenant.testKey, { file_name: 'a.pdf', file_size: 10, mime_type: PDF });
      const missing = await testApp.http.post(`/v1/files/${upload.fileId}/confirm`).set(bearer(tenant.testKey)).expect(409);
      expect(missing.body.error.code).toBe('UPLOAD_NOT_CONFIRMED');
      expect((await putObject(upload.uploadUrl, Buffer.alloc(10, 1), PDF)).status).toBe(200);
      await testApp.http.post(`/v1/files/${upload.fileId}/confirm`).set(bearer(tenant.testKey)).expect(200);
      const again = await testApp.http.post(`/v1/files/${upload.fileId}/confirm`).set(bearer(tenant.testKey)).expect(409);
      expect(again.body.error).toMatchObject({ code: 'FILE_ALREADY_CONFIRMED', type: 'conflict_error' });
      expect(again.body.error.message).toMatch(/already CONFIRMED/);
    });

    it.each([
      ['exactly 10% more', 1100, 200],
      ['exactly 10% less', 900, 200],
      ['just under 10% less', 899, 409],
    ])('declared 1000, uploaded %s (%d bytes) → %d', async (_name, actual, status) => {
      const upload = await fixtures.uploadUrl(tenant.testKey, { file_name: 'a.pdf', file_size: 1000, mime_type: PDF });
      expect((await putObject(upload.uploadUrl, Buffer.alloc(actual, 7), PDF)).status).toBe(200);
      const response = await testApp.http.post(`/v1/files/${upload.fileId}/confirm`).set(bearer(tenant.testKey)).expect(status);
      if (status === 200) {
        expect(response.body.data.file_size).toBe(actual);
        return;
      }
      expect(response.body.error.code).toBe('UPLOAD_NOT_CONFIRMED');
      const file = await testApp.http.get(`/v1/files/${upload.fileId}`).set(bearer(tenant.testKey)).expect(200);
      expect(file.body.data.upload_status).toBe('PENDING');
      // The object was deleted: confirming again finds nothing.
      const again = await testApp.http.post(`/v1/files/${upload.fileId}/confirm`).set(bearer(tenant.testKey)).expect(409);
      expect(again.body.error.message).toMatch(/no object/);
    });

    it('just over 10% more is refused by the local server itself (413) and nothing is kept', async () => {
      const upload = await fixtures.uploadUrl(tenant.testKey, { file_name: 'a.pdf', file_size: 1000, mime_type: PDF });
      const put = await putObject(upload.uploadUrl, Buffer.alloc(1101, 7), PDF);
      expect(put.status).toBe(413);
      const confirm = await testApp.http.post(`/v1/files/${upload.fileId}/confirm`).set(bearer(tenant.testKey)).expect(409);
      expect(confirm.body.error.code).toBe('UPLOAD_NOT_CONFIRMED');
    });
  });

  describe('upload URL after confirm', () => {
    it('refuses a PUT once the file is CONFIRMED (409), so the delivered bytes stay what was confirmed', async () => {
      const owner = await testApp.createTenant('free');
      const original = Buffer.from('the confirmed edition');
      const product = await fixtures.product(owner.merchantId, 'test');
      const upload = await fixtures.uploadUrl(owner.testKey, { file_name: 'guide.pdf', file_size: original.length, mime_type: PDF, product_id: product.id });
      expect((await putObject(upload.uploadUrl, original, PDF)).status).toBe(200);
      // Before confirm the URL may be used again (a retry replaces the object).
      expect((await putObject(upload.uploadUrl, original, PDF)).status).toBe(200);
      await testApp.http.post(`/v1/files/${upload.fileId}/confirm`).set(bearer(owner.testKey)).expect(200);

      const swap = await putObject(upload.uploadUrl, Buffer.from('a swapped edition!!!!'), PDF);
      expect(swap.status).toBe(409);
      expect(swap.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await swap.text()).toMatch(/confirmed or deleted/);

      const customer = await fixtures.customer(owner.merchantId, 'test');
      const entitlement = await fixtures.entitlement(owner.merchantId, 'test', customer.id, product.id);
      const download = await testApp.http
        .get(`/v1/files/${upload.fileId}/download`)
        .query({ entitlement_id: entitlement.id, customer_id: customer.id })
        .set(bearer(owner.testKey))
        .expect(200);
      const got = await fetch(download.body.data.download_url);
      expect(Buffer.from(await got.arrayBuffer()).equals(original)).toBe(true);
    });

    it('confirm reads the size and deletes a wrong-size object under the file row lock', async () => {
      const upload = await fixtures.uploadUrl(tenant.testKey, { file_name: 'locked.pdf', file_size: 1000, mime_type: PDF });
      expect((await putObject(upload.uploadUrl, Buffer.alloc(1000, 1), PDF)).status).toBe(200);
      const objectPath = path.join(testApp.dataDirectory, 'objects', tenant.merchantId, 'test', upload.fileId);
      let confirm: Promise<Response> | null = null;
      await withFileRowLocked(testApp, upload.fileId, async () => {
        confirm = testApp.http.post(`/v1/files/${upload.fileId}/confirm`).set(bearer(tenant.testKey)).then((response) => response);
        // Confirm waits for the lock; meanwhile the object changes size on disk.
        await new Promise((resolve) => setTimeout(resolve, 300));
        writeFileSync(objectPath, Buffer.alloc(2000, 2));
      });
      const outcome = await (confirm as unknown as Promise<Response>);
      expect(outcome.status).toBe(409);
      expect(outcome.body.error.message).toMatch(/2000 bytes/);
      expect(existsSync(objectPath)).toBe(false);
    });

    it('orders an upload and a confirm on the file row lock: what is confirmed is what is stored', async () => {
      const upload = await fixtures.uploadUrl(tenant.testKey, { file_name: 'raced.pdf', file_size: 1000, mime_type: PDF });
      expect((await putObject(upload.uploadUrl, Buffer.alloc(1000, 1), PDF)).status).toBe(200);
      let put: Promise<globalThis.Response> | null = null;
      let confirm: Promise<Response> | null = null;
      await withFileRowLocked(testApp, upload.fileId, async () => {
        // The upload's bytes arrive, then it waits for the lock to place them; confirm queues behind.
        put = putObject(upload.uploadUrl, Buffer.alloc(1050, 3), PDF);
        await new Promise((resolve) => setTimeout(resolve, 300));
        confirm = testApp.http.post(`/v1/files/${upload.fileId}/confirm`).set(bearer(tenant.testKey)).then((response) => response);
        await new Promise((resolve) => setTimeout(resolve, 300));
      });
      const [putOutcome, confirmOutcome] = await Promise.all([put as unknown as Promise<globalThis.Response>, confirm as unknown as Promise<Response>]);
      expect(confirmOutcome.status).toBe(200);
      const stored = readFileSync(path.join(testApp.dataDirectory, 'objects', tenant.merchantId, 'test', upload.fileId));
      // Either order is consistent: the upload placed its bytes first and they were confirmed
      // (on PostgreSQL, where it queued first for the lock), or confirm came first and the upload
      // was refused (the embedded database's single connection can reorder them).
      expect([putOutcome.status, stored.length]).toEqual(putOutcome.status === 200 ? [200, 1050] : [409, 1000]);
      expect(confirmOutcome.body.data.file_size).toBe(stored.length);
      expect((await putObject(upload.uploadUrl, Buffer.alloc(1000, 4), PDF)).status).toBe(409);
    });
  });

  describe('local storage server', () => {
    it('refuses tampered, expired and wrong-Content-Type uploads with plain HTTP errors', async () => {
      const upload = await fixtures.uploadUrl(tenant.testKey, { file_name: 'a.pdf', file_size: 10, mime_type: PDF });
      const url = new URL(upload.uploadUrl);
      const token = url.searchParams.get('token') as string;
      const [payload, signature] = token.split('.');
      const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
      const tampered = new URL(upload.uploadUrl);
      tampered.searchParams.set('token', `${payload}.${flipped}`);
      const forged = new URL(upload.uploadUrl);
      const grant = JSON.parse(Buffer.from(payload, 'base64url').toString());
      forged.searchParams.set('token', `${Buffer.from(JSON.stringify({ ...grant, maxBytes: 10 ** 9 })).toString('base64url')}.${signature}`);
      for (const bad of [tampered, forged]) {
        const response = await putObject(bad.toString(), Buffer.alloc(10), PDF);
        expect(response.status).toBe(403);
        expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      }
      const otherKey = new URL(upload.uploadUrl);
      otherKey.pathname = otherKey.pathname.replace(/file_[0-9a-z]+$/, 'file_01jd8x3k2m4n5p6q7r8s9t0v1w');
      expect((await putObject(otherKey.toString(), Buffer.alloc(10), PDF)).status).toBe(403);
      expect((await putObject(upload.uploadUrl, Buffer.alloc(10), 'text/plain')).status).toBe(403);
      expect((await fetch(upload.uploadUrl)).status).toBe(403); // a PUT token does not read
      jest.spyOn(clock, 'now').mockReturnValue(new Date(Date.now() + 60 * 60 * 1000 + 1000));
      const expired = await putObject(upload.uploadUrl, Buffer.alloc(10), PDF);
      expect(expired.status).toBe(403);
      expect(await expired.text()).toMatch(/expired/);
      jest.restoreAllMocks();
      expect((await putObject(upload.uploadUrl, Buffer.alloc(10), PDF)).status).toBe(200);
    });

    it('cuts off a body larger than 110% of the declared size even without Content-Length, leaving no temporary file', async () => {
      const upload = await fixtures.uploadUrl(tenant.testKey, { file_name: 'big.pdf', file_size: 100_000, mime_type: PDF });
      const chunks = (async function* () {
        for (let index = 0; index < 40; index += 1) yield new Uint8Array(16_384);
      })();
      const response = await fetch(upload.uploadUrl, {
        method: 'PUT',
        headers: { 'Content-Type': PDF },
        body: chunks as unknown as BodyInit,
        duplex: 'half',
      } as RequestInit);
      expect(response.status).toBe(413);
      // The temporary file is removed before the 413 is sent.
      const incoming = path.join(testApp.dataDirectory, 'objects', '.incoming');
      expect(existsSync(incoming) ? readdirSync(incoming) : []).toEqual([]);
      const confirm = await testApp.http.post(`/v1/files/${upload.fileId}/confirm`).set(bearer(tenant.testKey)).expect(409);
      expect(confirm.body.error.code).toBe('UPLOAD_NOT_CONFIRMED');
    });

    it('a download URL works for 60 seconds and not after (injected clock)', async () => {
      const owner = await testApp.createTenant('free');
      const bytes = Buffer.from('sixty seconds');
      const { product, fileId } = await uploadAndConfirm(owner.liveKey, owner.merchantId, 'live', bytes);
      const customer = await fixtures.customer(owner.merchantId, 'live');
      const entitlement = await fixtures.entitlement(owner.merchantId, 'live', customer.id, product.id);
      const issuedAt = new Date();
      jest.spyOn(clock, 'now').mockReturnValue(issuedAt);
      const download = await testApp.http
        .get(`/v1/files/${fileId}/download`)
        .query({ entitlement_id: entitlement.id, customer_id: customer.id })
        .set(bearer(owner.liveKey))
        .expect(200);
      expect(download.body.data.expires_at).toBe(new Date(issuedAt.getTime() + 60_000).toISOString());
      jest.spyOn(clock, 'now').mockReturnValue(new Date(issuedAt.getTime() + 59_999));
      expect((await fetch(download.body.data.download_url)).status).toBe(200);
      jest.spyOn(clock, 'now').mockReturnValue(new Date(issuedAt.getTime() + 60_000));
      const expired = await fetch(download.body.data.download_url);
      expect(expired.status).toBe(403);
      expect(await expired.text()).toMatch(/expired/);
    });
  });
});
