import type { Response } from 'supertest';
import { Clock } from '../../src/clock/clock';
import { FileFixtures, putObject, withFileRowLocked } from '../support/file-fixtures';
import { RunningS3Server, startS3Server } from '../support/s3-server';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';
import { untilBlocked } from '../support/until-blocked';

const PDF = 'application/pdf';

describe('files on the S3 storage driver (against s3rver)', () => {
  let s3: RunningS3Server;
  let testApp: TestApp;
  let fixtures: FileFixtures;
  let tenant: TestTenant;

  beforeAll(async () => {
    s3 = await startS3Server();
    testApp = await createTestApp({
      STORAGE_DRIVER: 's3',
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    });
    fixtures = new FileFixtures(testApp);
    tenant = await testApp.createTenant('growth');
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    await testApp?.close();
    await s3?.close();
  });

  it('readiness probes the bucket: up when it exists, 503 when it does not', async () => {
    const ready = await testApp.http.get('/health/ready').expect(200);
    expect(ready.body.details.storage).toEqual({ status: 'up', driver: 's3' });
    const missingBucket = await createTestApp({
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'no-such-bucket',
      S3_ENDPOINT: s3.endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    });
    try {
      const notReady = await missingBucket.http.get('/health/ready').expect(503);
      expect(notReady.body.details.storage).toMatchObject({ status: 'down', driver: 's3' });
      expect(JSON.stringify(notReady.body)).not.toContain(s3.secretAccessKey);
    } finally {
      await missingBucket.close();
    }
  });

  it('PUT through the presigned URL, confirm with HeadObject, download through the signed URL', async () => {
    const product = await fixtures.product(tenant.merchantId, 'live');
    const bytes = Buffer.from('%PDF-1.7 '.repeat(500));
    const created = await testApp.http
      .post('/v1/files/upload-url')
      .set(bearer(tenant.liveKey))
      .send({ file_name: 'Übersicht 2026.pdf', file_size: bytes.length, mime_type: PDF, product_id: product.id })
      .expect(201);
    const data = created.body.data;
    const uploadUrl = new URL(data.upload_url);
    expect(uploadUrl.origin).toBe(s3.endpoint);
    expect(uploadUrl.pathname).toBe(`/${s3.bucket}/${tenant.merchantId}/live/${data.file_id}`);
    expect(uploadUrl.searchParams.get('X-Amz-Expires')).toBe('3600');
    expect(uploadUrl.searchParams.get('X-Amz-SignedHeaders')).toContain('content-type');
    expect(uploadUrl.searchParams.get('X-Amz-SignedHeaders')).toContain('if-none-match');
    expect(data.upload_headers).toEqual({ 'Content-Type': PDF, 'If-None-Match': '*' });
    // The write-once condition (If-None-Match: *) is signed, so S3, MinIO or R2 refuse (412) a PUT
    // once the object exists. s3rver implements neither V4 signature checks nor the condition:
    // what it can show is that the URL and the headers carry it.

    expect((await putObject(data.upload_url, bytes, PDF, data.upload_headers)).status).toBe(200);
    const confirmed = await testApp.http.post(`/v1/files/${data.file_id}/confirm`).set(bearer(tenant.liveKey)).expect(200);
    expect(confirmed.body.data).toMatchObject({ upload_status: 'CONFIRMED', file_size: bytes.length });

    const customer = await fixtures.customer(tenant.merchantId, 'live');
    const entitlement = await fixtures.entitlement(tenant.merchantId, 'live', customer.id, product.id);
    const download = await testApp.http
      .get(`/v1/files/${data.file_id}/download`)
      .query({ entitlement_id: entitlement.id, customer_id: customer.id })
      .set(bearer(tenant.liveKey))
      .expect(200);
    const downloadUrl = new URL(download.body.data.download_url);
    expect(downloadUrl.searchParams.get('X-Amz-Expires')).toBe('60');
    const got = await fetch(download.body.data.download_url);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    expect(got.headers.get('content-disposition')).toBe(`attachment; filename="_bersicht 2026.pdf"; filename*=UTF-8''%C3%9Cbersicht%202026.pdf`);
  });

  it('a signed download URL issued more than 60 s ago is refused by the store (signing date from the clock)', async () => {
    const product = await fixtures.product(tenant.merchantId, 'live');
    const upload = await fixtures.uploadUrl(tenant.liveKey, { file_name: 'old.pdf', file_size: 3, mime_type: PDF, product_id: product.id });
    await putObject(upload.uploadUrl, Buffer.from('old'), PDF, upload.uploadHeaders);
    await testApp.http.post(`/v1/files/${upload.fileId}/confirm`).set(bearer(tenant.liveKey)).expect(200);
    const customer = await fixtures.customer(tenant.merchantId, 'live');
    const entitlement = await fixtures.entitlement(tenant.merchantId, 'live', customer.id, product.id);
    jest.spyOn(testApp.app.get(Clock), 'now').mockReturnValue(new Date(Date.now() - 61_000));
    const download = await testApp.http
      .get(`/v1/files/${upload.fileId}/download`)
      .query({ entitlement_id: entitlement.id, customer_id: customer.id })
      .set(bearer(tenant.liveKey))
      .expect(200);
    expect((await fetch(download.body.data.download_url)).status).toBe(403);
  });

  it.each([
    ['exactly 10% more', 1100, 200],
    ['just over 10% more', 1101, 409],
    ['exactly 10% less', 900, 200],
    ['just over 10% less', 899, 409],
  ])('confirm tolerance: declared 1000, uploaded %s (%d bytes) → %d (outside: object deleted, file still PENDING)', async (_name, actual, status) => {
    const upload = await fixtures.uploadUrl(tenant.liveKey, { file_name: 'edge.pdf', file_size: 1000, mime_type: PDF });
    expect((await putObject(upload.uploadUrl, Buffer.alloc(actual, 1), PDF, upload.uploadHeaders)).status).toBe(200);
    const confirm = await testApp.http.post(`/v1/files/${upload.fileId}/confirm`).set(bearer(tenant.liveKey)).expect(status);
    if (status === 200) return;
    expect(confirm.body.error.code).toBe('UPLOAD_NOT_CONFIRMED');
    const file = await testApp.http.get(`/v1/files/${upload.fileId}`).set(bearer(tenant.liveKey)).expect(200);
    expect(file.body.data.upload_status).toBe('PENDING');
    const again = await testApp.http.post(`/v1/files/${upload.fileId}/confirm`).set(bearer(tenant.liveKey)).expect(409);
    expect(again.body.error.message).toMatch(/no object/);
    // The client may upload again while the URL is valid.
    expect((await putObject(upload.uploadUrl, Buffer.alloc(1000, 1), PDF, upload.uploadHeaders)).status).toBe(200);
    await testApp.http.post(`/v1/files/${upload.fileId}/confirm`).set(bearer(tenant.liveKey)).expect(200);
  });

  it('confirm without an uploaded object → 409 UPLOAD_NOT_CONFIRMED', async () => {
    const upload = await fixtures.uploadUrl(tenant.liveKey, { file_name: 'never.pdf', file_size: 10, mime_type: PDF });
    const response = await testApp.http.post(`/v1/files/${upload.fileId}/confirm`).set(bearer(tenant.liveKey)).expect(409);
    expect(response.body.error.code).toBe('UPLOAD_NOT_CONFIRMED');
  });

  it('the local storage routes are closed on the s3 driver', async () => {
    await testApp.http.get(`/storage/${tenant.merchantId}/live/file_01jd8x3k2m4n5p6q7r8s9t0v1w?token=x`).expect(404);
  });

  it('confirm reads the size and deletes a wrong-size object under the file row lock', async () => {
    const upload = await fixtures.uploadUrl(tenant.liveKey, { file_name: 'locked.pdf', file_size: 1000, mime_type: PDF });
    expect((await putObject(upload.uploadUrl, Buffer.alloc(1000, 1), PDF, upload.uploadHeaders)).status).toBe(200);
    let confirm: Promise<Response> | null = null;
    await withFileRowLocked(testApp, upload.fileId, async () => {
      confirm = testApp.http.post(`/v1/files/${upload.fileId}/confirm`).set(bearer(tenant.liveKey)).then((response) => response);
      // Confirm waits for the lock; meanwhile the object is replaced by one of the wrong size.
      await untilBlocked(testApp, tenant.merchantId);
      await s3.replaceObject(`${tenant.merchantId}/live/${upload.fileId}`, Buffer.alloc(2000, 2));
    });
    const outcome = await (confirm as unknown as Promise<Response>);
    // Had confirm read the size before taking the lock, it would have confirmed 1000 bytes.
    expect(outcome.status).toBe(409);
    expect(outcome.body.error.message).toMatch(/2000 bytes/);
    const file = await testApp.http.get(`/v1/files/${upload.fileId}`).set(bearer(tenant.liveKey)).expect(200);
    expect(file.body.data.upload_status).toBe('PENDING');
    const again = await testApp.http.post(`/v1/files/${upload.fileId}/confirm`).set(bearer(tenant.liveKey)).expect(409);
    expect(again.body.error.message).toMatch(/no object/);
  });
});
