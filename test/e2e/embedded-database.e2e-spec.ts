import { EventEmitter2 } from '@nestjs/event-emitter';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { MerchantEntity } from '../../src/auth/merchant.entity';
import { Tenant } from '../../src/database/tenant';
import { UnitOfWork } from '../../src/database/unit-of-work';
import { EVENTS_COMMITTED } from '../../src/database/domain-event';
import { DEMO_PRODUCTS } from '../../src/demo/demo-catalogue';
import { generateId } from '../../src/ids/id';
import { EventEntity } from '../../src/webhooks/event.entity';
import { eventually } from '../support/eventually';
import { createTestApp, TestApp } from '../support/test-app';
import { freePort } from '../support/free-port';
import { describeNeeding } from '../support/requirements';
import { startService, waitUntilListening } from '../support/embedded-service';

/** 20 transactions each read the counter under FOR UPDATE and write it back + 1: any interleaving loses updates. */
async function concurrentIncrements(dataSource: DataSource, count: number): Promise<number> {
  const table = `concurrency_counter_${generateId('evt').slice(4)}`;
  await dataSource.query(`CREATE TABLE ${table} (id integer PRIMARY KEY, value integer NOT NULL)`);
  try {
    await dataSource.query(`INSERT INTO ${table} (id, value) VALUES (1, 0)`);
    await Promise.all(
      Array.from({ length: count }, () =>
        dataSource.transaction(async (manager) => {
          const [row] = (await manager.query(`SELECT value FROM ${table} WHERE id = 1 FOR UPDATE`)) as { value: number }[];
          // Yield between read and write so an unserialised driver would interleave here.
          await new Promise((resolve) => setImmediate(resolve));
          await manager.query(`UPDATE ${table} SET value = $1 WHERE id = 1`, [row.value + 1]);
        }),
      ),
    );
    const [final] = (await dataSource.query(`SELECT value FROM ${table} WHERE id = 1`)) as { value: number }[];
    return final.value;
  } finally {
    await dataSource.query(`DROP TABLE ${table}`);
  }
}

describe('embedded database (PGlite)', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    // '' forces the embedded database even when the run has a PostgreSQL server.
    testApp = await createTestApp({ DATABASE_URL: '' });
  });
  afterAll(() => testApp.close());

  it('runs embedded: the data lives under DATA_DIR/pg', () => {
    expect(testApp.databaseUrl).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres/);
    expect(existsSync(path.join(testApp.dataDirectory, 'pg'))).toBe(true);
  });

  it('serialises 20 concurrent SELECT … FOR UPDATE + UPDATE transactions without losing one', async () => {
    expect(await concurrentIncrements(testApp.app.get(DataSource), 20)).toBe(20);
  });

  describe('outbox atomicity', () => {
    let tenant: Tenant;
    let unitOfWork: UnitOfWork;
    let dataSource: DataSource;

    beforeAll(async () => {
      const merchantId = (await testApp.createTenant()).merchantId;
      tenant = { merchantId, mode: 'test' };
      unitOfWork = testApp.app.get(UnitOfWork);
      dataSource = testApp.app.get(DataSource);
    });

    const eventsOf = () => dataSource.manager.findBy(EventEntity, { merchant_id: tenant.merchantId });
    const merchantName = async () => (await dataSource.manager.findOneByOrFail(MerchantEntity, { id: tenant.merchantId })).name;

    it('rolls back the change and its event together when the work throws after publishing', async () => {
      const emitter = testApp.app.get(EventEmitter2);
      const committed = jest.fn();
      emitter.on(EVENTS_COMMITTED, committed);
      const before = await merchantName();
      try {
        await expect(
          unitOfWork.run(async ({ manager, publish }) => {
            await manager.update(MerchantEntity, { id: tenant.merchantId }, { name: 'changed then rolled back' });
            await publish('product.updated', tenant, { id: 'prod_x', name: 'rolled back' });
            throw new Error('fails after publishing');
          }),
        ).rejects.toThrow('fails after publishing');
        expect(await eventsOf()).toEqual([]);
        expect(await merchantName()).toBe(before);
        expect(committed).not.toHaveBeenCalled();
      } finally {
        emitter.off(EVENTS_COMMITTED, committed);
      }
    });

    it('writes the event row in the same transaction and wakes the dispatcher only after commit', async () => {
      const emitter = testApp.app.get(EventEmitter2);
      const seenAtWake: Promise<EventEntity[]>[] = [];
      const onCommitted = () => {
        // Read from outside the transaction: the row must already be committed when the wake comes.
        seenAtWake.push(eventsOf());
      };
      emitter.on(EVENTS_COMMITTED, onCommitted);
      try {
        const result = await unitOfWork.run(async ({ manager, publish }) => {
          await manager.update(MerchantEntity, { id: tenant.merchantId }, { name: 'changed with its event' });
          await publish('product.updated', tenant, { id: 'prod_y', name: 'committed' });
          // Published events are written together when the work ends, still inside the transaction.
          expect(await manager.countBy(EventEntity, { merchant_id: tenant.merchantId })).toBe(0);
          return 'done';
        });
        expect(result).toBe('done');
        const events = await eventsOf();
        expect(events).toHaveLength(1);
        expect(events[0]).toMatchObject({
          merchant_id: tenant.merchantId,
          mode: 'test',
          type: 'product.updated',
          data: { object: { id: 'prod_y', name: 'committed' } },
        });
        expect(events[0].id).toMatch(/^evt_/);
        expect(await merchantName()).toBe('changed with its event');
        await eventually(async () => seenAtWake.length === 1, 5_000, 10);
        expect((await seenAtWake[0]).map((event) => event.id)).toEqual([events[0].id]);
      } finally {
        emitter.off(EVENTS_COMMITTED, onCommitted);
      }
    });

    it('does not wake the dispatcher for a transaction that published nothing', async () => {
      const emitter = testApp.app.get(EventEmitter2);
      const committed = jest.fn();
      emitter.on(EVENTS_COMMITTED, committed);
      try {
        await unitOfWork.run(async ({ manager }) => manager.update(MerchantEntity, { id: tenant.merchantId }, { name: 'no event' }));
        expect(committed).not.toHaveBeenCalled();
      } finally {
        emitter.off(EVENTS_COMMITTED, committed);
      }
    });
  });
});

describeNeeding(['postgresql'], 'PostgreSQL database (TEST_DATABASE_URL)', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  it('runs on the configured server and serialises the same 20 transactions', async () => {
    expect(testApp.databaseUrl).toBe(process.env.EH_TEST_DATABASE_URL);
    expect(await concurrentIncrements(testApp.app.get(DataSource), 20)).toBe(20);
  });
});

describe('embedded boot with no environment', () => {
  let directory: string;

  beforeAll(() => {
    directory = mkdtempSync(path.join(tmpdir(), 'eh-boot-'));
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('creates the demo merchant once, prints a key that lists products, and serves /docs', async () => {
    const port = await freePort();
    const first = startService(directory, port);
    let demoKey: string;
    try {
      await waitUntilListening(first);
      // One readable summary, after the line saying why the first start takes a while; no route-mapping lines.
      expect(first.output()).toContain('First start: creating the embedded database in');
      expect(first.output()).toMatch(/database: +embedded PostgreSQL/);
      expect(first.output()).toMatch(/admin API: +off/);
      expect(first.output()).toMatch(new RegExp(`docs: +http://localhost:${port}/docs`));
      expect(first.output()).not.toMatch(/Mapped \{|RoutesResolver|InstanceLoader/);
      const match = /test API key[^:]*: (eh_test_[0-9A-Za-z]{32,})/.exec(first.output());
      expect(match).not.toBeNull();
      demoKey = (match as RegExpExecArray)[1];
      const http = request(`http://127.0.0.1:${port}`);
      // The demo catalogue the docs' examples name, and the line that lists it.
      const products = await http.get('/v1/products').set('Authorization', `Bearer ${demoKey}`).expect(200);
      const storeIds = Object.values(DEMO_PRODUCTS).map((product) => product.store_product_id);
      expect(products.body.data.map((product: { store_product_id: string }) => product.store_product_id).sort()).toEqual([...storeIds].sort());
      expect(products.body.pagination).toEqual({ total: storeIds.length, limit: 25, has_more: false, next_cursor: null });
      expect(first.output()).toContain(`demo catalogue (test mode; the /docs examples use it): ${storeIds.join(', ')}`);
      const check = await http
        .get('/v1/entitlements/check?store_customer_id=store_cust_1001&store_product_id=sku_ebook_42')
        .set('Authorization', `Bearer ${demoKey}`)
        .expect(200);
      expect(check.body.data).toMatchObject({ entitled: true, entitlement: { access_type: 'bundle' } });
      const docs = await http.get('/docs').redirects(1);
      expect(docs.status).toBe(200);
      expect(docs.text).toContain('swagger');
      await http.get('/docs/openapi.json').expect(200);
      expect(existsSync(path.join(directory, 'data', 'pg'))).toBe(true);
      // Beside the key, a working dashboard sign-in link (DESIGN §11).
      const setup = /set a password at (http\S+\/dashboard\/setup#token=(\S+))/.exec(first.output());
      expect(setup).not.toBeNull();
      const token = (setup as RegExpExecArray)[2];
      await http.post('/dashboard/api/setup').send({ token, password: 'demo password 123' }).expect(200);
      await http.post('/dashboard/api/sign-in').send({ email: 'demo@example.com', password: 'demo password 123' }).expect(200);
    } finally {
      await first.stop();
    }

    const second = startService(directory, port);
    try {
      await waitUntilListening(second);
      expect(second.output()).not.toMatch(/eh_test_/);
      expect(second.output()).not.toContain('Demo merchant created');
      expect(second.output()).not.toContain('First start');
      // The first start's key still works: same database, seeded once.
      await request(`http://127.0.0.1:${port}`).get('/v1/products').set('Authorization', `Bearer ${demoKey}`).expect(200);
    } finally {
      await second.stop();
    }
  }, 400_000);

  it('keeps the demo key for the next start when the first one finds its port busy', async () => {
    const busyDirectory = mkdtempSync(path.join(tmpdir(), 'eh-boot-busy-'));
    const port = await freePort();
    const occupant = createServer();
    await new Promise<void>((resolve) => occupant.listen(port, '127.0.0.1', resolve));
    try {
      const refused = startService(busyDirectory, port);
      await new Promise<void>((resolve) => refused.child.once('exit', () => resolve()));
      expect(refused.child.exitCode).not.toBe(0);
      expect(refused.output()).not.toMatch(/eh_test_/);
    } finally {
      await new Promise<void>((resolve) => occupant.close(() => resolve()));
    }
    const next = startService(busyDirectory, port);
    try {
      await waitUntilListening(next);
      const match = /test API key[^:]*: (eh_test_[0-9A-Za-z]{32,})/.exec(next.output());
      expect(match).not.toBeNull();
      await request(`http://127.0.0.1:${port}`).get('/v1/products').set('Authorization', `Bearer ${(match as RegExpExecArray)[1]}`).expect(200);
    } finally {
      await next.stop();
      rmSync(busyDirectory, { recursive: true, force: true });
    }
  }, 400_000);
});
