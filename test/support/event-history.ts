import type { DataSource } from 'typeorm';
import { bearer, TestApp, TestTenant } from './test-app';

/** A webhook endpoint of the tenant (test mode), for history rows to point at. */
export async function endpointOf(testApp: TestApp, tenant: TestTenant): Promise<string> {
  const created = await testApp.http.post('/v1/webhook-endpoints').set(bearer(tenant.testKey)).send({ url: 'https://hooks.example.com/in', enabled_events: ['*'] }).expect(201);
  return created.body.data.id as string;
}

/**
 * `count` events `evt_<label>_<n>`, as many settled deliveries and `attempts` attempts, of the
 * tenant's endpoint, `ageDays` old and older by a second each: written by generate_series, fast.
 */
export async function insertHistory(dataSource: DataSource, tenant: TestTenant, endpointId: string, label: string, count: number, ageDays: number, attempts = Math.floor(count / 2)): Promise<void> {
  const age = `now() - make_interval(days => ${ageDays}) - g * interval '1 second'`;
  await dataSource.query(
    `INSERT INTO events (id, merchant_id, mode, type, data, created_at)
     SELECT 'evt_${label}_' || g, $1, 'test', 'entitlement.created', '{"object":{"id":"ent_history"}}'::jsonb, ${age}
     FROM generate_series(1, $2::int) g`,
    [tenant.merchantId, count],
  );
  await dataSource.query(
    `INSERT INTO webhook_deliveries (merchant_id, mode, endpoint_id, event_id, object_id, status, attempt_count, next_attempt_at, created_at, updated_at)
     SELECT $1, 'test', $2, 'evt_${label}_' || g, 'ent_history', 'succeeded', 1, ${age}, ${age}, ${age}
     FROM generate_series(1, $3::int) g`,
    [tenant.merchantId, endpointId, count],
  );
  await dataSource.query(
    `INSERT INTO webhook_delivery_attempts (id, merchant_id, mode, endpoint_id, event_id, event_type, attempt, succeeded, status_code, duration_ms, attempted_at)
     SELECT 'wd_${label}_' || g, $1, 'test', $2, 'evt_${label}_' || g, 'entitlement.created', 1, true, 200, 12, ${age}
     FROM generate_series(1, $3::int) g`,
    [tenant.merchantId, endpointId, attempts],
  );
}

export const countOf = async (dataSource: DataSource, sql: string, parameters: unknown[]): Promise<number> => Number((await dataSource.query(sql, parameters))[0].count);
