import { ApiKeysService } from '../../src/auth/api-keys.service';
import { DemoMerchantSeeder } from '../../src/auth/demo-merchant.seeder';
import { MerchantsRepository } from '../../src/auth/merchants.repository';
import { MerchantsService } from '../../src/auth/merchants.service';
import { AppConfig } from '../../src/config/app-config';
import { validateEnvironment } from '../../src/config/config.schema';

function seederWith(environment: Record<string, string>, merchantCount: number) {
  const create = jest.fn().mockResolvedValue({ id: 'mer_1', name: 'Demo merchant', plan: 'free', created_at: '' });
  const createKey = jest.fn().mockResolvedValue({ key: 'eh_test_x' });
  const seeder = new DemoMerchantSeeder(
    new AppConfig(validateEnvironment(environment)),
    { count: jest.fn().mockResolvedValue(merchantCount) } as unknown as MerchantsRepository,
    { create } as unknown as MerchantsService,
    { create: createKey } as unknown as ApiKeysService,
  );
  return { seeder, create, createKey };
}

describe('DemoMerchantSeeder', () => {
  let write: jest.SpyInstance;

  beforeEach(() => {
    write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
  });
  afterEach(() => write.mockRestore());

  it('seeds an empty embedded database with a demo merchant and a test key with every scope, and prints it', async () => {
    const { seeder, create, createKey } = seederWith({}, 0);
    await seeder.onApplicationBootstrap();
    expect(create).toHaveBeenCalledWith('Demo merchant', 'free');
    expect(createKey).toHaveBeenCalledWith('mer_1', expect.objectContaining({ mode: 'test', scopes: ['*'] }));
    expect(write.mock.calls.map((call) => String(call[0])).join('')).toContain('eh_test_x');
  });

  it('does not seed a database that has merchants', async () => {
    const { seeder, create } = seederWith({}, 1);
    await seeder.onApplicationBootstrap();
    expect(create).not.toHaveBeenCalled();
  });

  it('never seeds when DATABASE_URL is set, even an empty database', async () => {
    const { seeder, create } = seederWith({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/app' }, 0);
    await seeder.onApplicationBootstrap();
    expect(create).not.toHaveBeenCalled();
    expect(write).not.toHaveBeenCalled();
  });
});
