import { DataSource } from 'typeorm';
import type { ApiMode } from '../../src/database/tenant';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { EventType } from '../../src/database/domain-event';
import { EventEntity } from '../../src/webhooks/event.entity';
import { bearer, createTestApp, TestApp, TestTenant } from '../support/test-app';

describe('events API', () => {
  let testApp: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;

  async function publish(type: EventType, object: Record<string, unknown>, mode: ApiMode = 'test', merchantId = tenant.merchantId): Promise<void> {
    await testApp.app.get(UnitOfWork).run(async ({ publish: record }) => record(type, { merchantId, mode }, object));
  }

  /** Sets an event's creation time, so time filters are tested without waiting. */
  async function backdate(eventId: string, createdAt: string): Promise<void> {
    await testApp.app.get(DataSource).manager.update(EventEntity, { id: eventId }, { created_at: new Date(createdAt) });
  }

  beforeAll(async () => {
    testApp = await createTestApp();
    tenant = await testApp.createTenant();
    other = await testApp.createTenant();
    await publish('entitlement.created', { id: 'ent_1', status: 'ACTIVE' });
    await publish('entitlement.revoked', { id: 'ent_1', status: 'REVOKED' });
    await publish('product.created', { id: 'prod_1' });
    await publish('entitlement.revoked', { id: 'ent_2', status: 'REVOKED' });
    await publish('file.uploaded', { id: 'file_1' });
    await publish('product.created', { id: 'prod_live' }, 'live');
    await publish('product.created', { id: 'prod_other' }, 'test', other.merchantId);
  });
  afterAll(() => testApp.close());

  it('lists the tenant and mode events newest first in the documented shape, with total', async () => {
    const response = await testApp.http.get('/v1/events').set(bearer(tenant.testKey)).expect(200);
    expect(response.body.pagination).toEqual({ total: 5, limit: 25, has_more: false, next_cursor: null });
    expect(response.body.data.map((event: { data: { object: { id: string } } }) => event.data.object.id)).toEqual(['file_1', 'ent_2', 'prod_1', 'ent_1', 'ent_1']);
    const [first] = response.body.data;
    expect(Object.keys(first).sort()).toEqual(['created_at', 'data', 'id', 'livemode', 'type']);
    expect(first).toMatchObject({ type: 'file.uploaded', livemode: false, data: { object: { id: 'file_1' } } });
    expect(first.id).toMatch(/^evt_/);
    expect(first.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const live = await testApp.http.get('/v1/events').set(bearer(tenant.liveKey)).expect(200);
    expect(live.body.data).toHaveLength(1);
    expect(live.body.data[0]).toMatchObject({ livemode: true, data: { object: { id: 'prod_live' } } });
    const otherList = await testApp.http.get('/v1/events').set(bearer(other.testKey)).expect(200);
    expect(otherList.body.data.map((event: { data: { object: { id: string } } }) => event.data.object.id)).toEqual(['prod_other']);
  });

  it('pages with a cursor and filters by type', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/v1/events?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await testApp.http.get(url).set(bearer(tenant.testKey)).expect(200);
      expect(page.body.pagination.total).toBe(5);
      seen.push(...page.body.data.map((event: { id: string }) => event.id));
      cursor = page.body.pagination.next_cursor;
    } while (cursor);
    const all = await testApp.http.get('/v1/events').set(bearer(tenant.testKey)).expect(200);
    expect(seen).toEqual(all.body.data.map((event: { id: string }) => event.id));

    const revoked = await testApp.http.get('/v1/events?type=entitlement.revoked').set(bearer(tenant.testKey)).expect(200);
    expect(revoked.body.pagination.total).toBe(2);
    expect(revoked.body.data.every((event: { type: string }) => event.type === 'entitlement.revoked')).toBe(true);
    const unknown = await testApp.http.get('/v1/events?type=bogus.type').set(bearer(tenant.testKey)).expect(400);
    expect(unknown.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: 'type' });
  });

  it('filters by created_after and created_before (exclusive, any ISO 8601 offset) and refuses other formats', async () => {
    const all = await testApp.http.get('/v1/events').set(bearer(tenant.testKey)).expect(200);
    const ids: string[] = all.body.data.map((event: { id: string }) => event.id).reverse();
    const times = ['2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z', '2026-05-01T00:00:00.000Z'];
    for (let index = 0; index < ids.length; index += 1) await backdate(ids[index], times[index]);

    const after = await testApp.http.get('/v1/events?created_after=2026-02-01T00:00:00Z').set(bearer(tenant.testKey)).expect(200);
    expect(after.body.data.map((event: { id: string }) => event.id)).toEqual([ids[4], ids[3], ids[2]]);
    const window = await testApp.http
      .get(`/v1/events?created_after=${encodeURIComponent('2026-01-15T02:00:00+02:00')}&created_before=2026-04-01T00:00:00.000Z`)
      .set(bearer(tenant.testKey))
      .expect(200);
    expect(window.body.data.map((event: { id: string }) => event.id)).toEqual([ids[2], ids[1]]);
    expect(window.body.pagination.total).toBe(2);

    for (const [name, value] of [['created_after', 'yesterday'], ['created_before', '2026-13-45T00:00:00Z'], ['created_after', '1700000000']]) {
      const response = await testApp.http.get(`/v1/events?${name}=${encodeURIComponent(value)}`).set(bearer(tenant.testKey)).expect(400);
      expect(response.body.error).toMatchObject({ code: 'INVALID_PARAMETER', param: name });
    }
    await testApp.http.get('/v1/events?limit=0').set(bearer(tenant.testKey)).expect(400);
    await testApp.http.get('/v1/events?cursor=tampered').set(bearer(tenant.testKey)).expect(400);
  });

  it('reads one event; other tenants, the other mode and malformed ids are 404 EVENT_NOT_FOUND', async () => {
    const all = await testApp.http.get('/v1/events').set(bearer(tenant.testKey)).expect(200);
    const event = all.body.data[0];
    const single = await testApp.http.get(`/v1/events/${event.id}`).set(bearer(tenant.testKey)).expect(200);
    expect(single.body.data).toEqual(event);
    for (const key of [tenant.liveKey, other.testKey]) {
      const response = await testApp.http.get(`/v1/events/${event.id}`).set(bearer(key)).expect(404);
      expect(response.body.error.code).toBe('EVENT_NOT_FOUND');
    }
    for (const id of ['nope', 'evt_', 'we_01jd8x3k2m4n5p6q7r8s9t0v1w', `evt_${'z'.repeat(300)}`, "evt_' OR 1=1 --"]) {
      const response = await testApp.http.get(`/v1/events/${encodeURIComponent(id)}`).set(bearer(tenant.testKey)).expect(404);
      expect(response.body.error.code).toBe('EVENT_NOT_FOUND');
    }
  });

  it('requires events:read', async () => {
    const key = await testApp.createKey(tenant.merchantId, 'test', ['webhooks:manage']);
    await testApp.http.get('/v1/events').set(bearer(key)).expect(403);
    const reader = await testApp.createKey(tenant.merchantId, 'test', ['events:read']);
    await testApp.http.get('/v1/events').set(bearer(reader)).expect(200);
  });
});
