import { AppConfig } from '../../src/config/app-config';
import { validateEnvironment } from '../../src/config/config.schema';
import { startupSummary } from '../../src/logging/startup-summary';

const config = (environment: Record<string, string>) => new AppConfig(validateEnvironment(environment));

describe('start-up summary', () => {
  it('names database, storage, adapter, admin API, private webhook URLs and the URLs, and prints the demo key when one was made', () => {
    const text = startupSummary(config({ PORT: '3000', DATA_DIR: '/srv/data' }), { dashboardPath: null, demo: { merchantId: 'mer_1', key: 'eh_test_demo', dashboard: null } });
    expect(text).toContain('API listening on http://localhost:3000');
    expect(text).toMatch(/database: +embedded PostgreSQL \(PGlite\) in \/srv\/data\/pg/);
    expect(text).toMatch(/storage: +local files in \/srv\/data\/objects/);
    expect(text).toMatch(/HTTP adapter: +express/);
    expect(text).toMatch(/admin API: +off/);
    expect(text).toMatch(/private webhook URLs: +refused/);
    expect(text).toMatch(/docs: +http:\/\/localhost:3000\/docs/);
    expect(text).toMatch(/dashboard: +not served/);
    expect(text).toContain('test API key (every scope; shown only this once): eh_test_demo');
  });

  it("prints the demo dashboard user's setup link beside the key when the dashboard is on", () => {
    const text = startupSummary(config({ PORT: '3000' }), {
      dashboardPath: '/dashboard',
      demo: { merchantId: 'mer_1', key: 'eh_test_demo', dashboard: { email: 'demo@example.com', setupUrl: 'http://localhost:3000/dashboard/setup#token=abc' } },
    });
    expect(text).toMatch(/dashboard: +http:\/\/localhost:3000\/dashboard/);
    expect(text).toContain('set a password at http://localhost:3000/dashboard/setup#token=abc');
    expect(text).toContain('sign in as demo@example.com at http://localhost:3000/dashboard');
  });

  it('names the read replica and unnamed statements, without their passwords (DESIGN §15)', () => {
    const text = startupSummary(
      config({
        DATABASE_URL: 'postgres://app:s3cret@pgbouncer:6432/entitlements',
        DATABASE_READ_URL: 'postgres://app:r3plica@replica.internal:5432/entitlements',
        DATABASE_PREPARED_STATEMENTS: 'false',
      }),
      { dashboardPath: null, demo: null },
    );
    expect(text).not.toMatch(/s3cret|r3plica/);
    expect(text).toMatch(/database: +PostgreSQL at pgbouncer:6432\/entitlements; lists from the replica at replica\.internal:5432\/entitlements; unnamed statements/);
  });

  it('never prints the database password, and shows what is switched on', () => {
    const text = startupSummary(
      config({
        DATABASE_URL: 'postgres://app:s3cret@db.internal:5433/entitlements',
        STORAGE_DRIVER: 's3',
        S3_BUCKET: 'deliveries',
        ADMIN_TOKEN: 'admin-token-0123456789abcdef',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        HTTP_ADAPTER: 'fastify',
        PUBLIC_BASE_URL: 'https://api.example.com',
      }),
      { dashboardPath: '/dashboard', demo: null },
    );
    expect(text).not.toContain('s3cret');
    expect(text).toMatch(/database: +PostgreSQL at db\.internal:5433\/entitlements/);
    expect(text).toMatch(/storage: +S3 bucket deliveries/);
    expect(text).toMatch(/HTTP adapter: +fastify/);
    expect(text).toMatch(/admin API: +on/);
    expect(text).toMatch(/private webhook URLs: +allowed/);
    expect(text).toMatch(/dashboard: +https:\/\/api\.example\.com\/dashboard/);
    expect(text).not.toContain('API key');
  });

  it('names the metrics listener as bound and the traces URL when they are on, and neither when off', () => {
    const off = startupSummary(config({ PORT: '3000' }), { dashboardPath: null, demo: null });
    expect(off).not.toMatch(/metrics:|traces:/);
    const on = startupSummary(config({ PORT: '3000', METRICS_PORT: '0', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/' }), {
      dashboardPath: null,
      demo: null,
      observability: { metrics: { host: '127.0.0.1', port: 41234 }, tracesUrl: 'http://127.0.0.1:4318/v1/traces' },
    });
    expect(on).toMatch(/metrics: +http:\/\/127\.0\.0\.1:41234\/metrics/);
    expect(on).toMatch(/traces: +OTLP\/HTTP to http:\/\/127\.0\.0\.1:4318\/v1\/traces/);
  });
});
