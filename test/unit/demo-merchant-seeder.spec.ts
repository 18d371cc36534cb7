import { ApiKeysService } from '../../src/auth/api-keys.service';
import { DashboardUserInviter } from '../../src/auth/dashboard-session-lookup';
import { DemoMerchantSeeder } from '../../src/auth/demo-merchant.seeder';
import { MerchantsService } from '../../src/auth/merchants.service';
import { AppConfig } from '../../src/config/app-config';
import { validateEnvironment } from '../../src/config/config.schema';

function seederWith(environment: Record<string, string>, merchantCount: number, inviter: DashboardUserInviter | null = null) {
  const create = jest.fn().mockResolvedValue({ id: 'mer_1', name: 'Demo merchant', plan: 'free', created_at: '' });
  const createKey = jest.fn().mockResolvedValue({ key: 'eh_test_x' });
  const seeder = new DemoMerchantSeeder(
    new AppConfig(validateEnvironment(environment)),
    { create, count: jest.fn().mockResolvedValue(merchantCount) } as unknown as MerchantsService,
    { create: createKey } as unknown as ApiKeysService,
    inviter,
  );
  return { seeder, create, createKey };
}

describe('DemoMerchantSeeder', () => {
  it('seeds an empty embedded database with a demo merchant and a test key with every scope, and returns them', async () => {
    const { seeder, create, createKey } = seederWith({}, 0);
    await expect(seeder.seed()).resolves.toEqual({ merchantId: 'mer_1', key: 'eh_test_x', dashboard: null });
    expect(create).toHaveBeenCalledWith('Demo merchant', 'free', expect.objectContaining({ actor: { type: 'system', id: 'demo', label: 'demo seed' } }));
    expect(createKey).toHaveBeenCalledWith('mer_1', expect.objectContaining({ mode: 'test', scopes: ['*'] }), expect.objectContaining({ action: 'demo.seed' }));
  });

  it('with the dashboard on, also invites the demo user and returns its one-time setup link', async () => {
    const invite = jest.fn().mockResolvedValue({ email: 'demo@example.com', setup_url: 'http://localhost:3000/dashboard/setup#token' });
    const { seeder } = seederWith({}, 0, { create: invite } as unknown as DashboardUserInviter);
    await expect(seeder.seed()).resolves.toEqual({
      merchantId: 'mer_1',
      key: 'eh_test_x',
      dashboard: { email: 'demo@example.com', setupUrl: 'http://localhost:3000/dashboard/setup#token' },
    });
    expect(invite).toHaveBeenCalledWith('mer_1', 'demo@example.com', {}, expect.objectContaining({ action: 'demo.seed' }));
  });

  it('does not seed a database that has merchants', async () => {
    const { seeder, create } = seederWith({}, 1);
    await expect(seeder.seed()).resolves.toBeNull();
    expect(create).not.toHaveBeenCalled();
  });

  it('never seeds when DATABASE_URL is set, even an empty database', async () => {
    const { seeder, create } = seederWith({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/app' }, 0);
    await expect(seeder.seed()).resolves.toBeNull();
    expect(create).not.toHaveBeenCalled();
  });
});
