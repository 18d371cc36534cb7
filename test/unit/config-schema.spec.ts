import { validateEnvironment } from '../../src/config/config.schema';

function messageOf(source: Record<string, string | undefined>): string {
  try {
    validateEnvironment(source);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be refused');
}

describe('config schema', () => {
  it('has working defaults with no environment at all (embedded start)', () => {
    const environment = validateEnvironment({});
    expect(environment).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      STORAGE_DRIVER: 'local',
      RATE_LIMIT_READ_PER_MINUTE: 120,
      RATE_LIMIT_WRITE_PER_MINUTE: 60,
      AUTH_FAILURE_LIMIT_PER_MINUTE: 30,
      EXPIRY_SWEEP_INTERVAL: 30_000,
    });
    expect(environment.DATABASE_URL).toBeUndefined();
    expect(environment.ADMIN_TOKEN).toBeUndefined();
    expect(environment.REDIS_URL).toBeUndefined();
    expect(environment.WEBHOOK_RETRY_SCHEDULE).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
  });

  it('converts typed values', () => {
    const environment = validateEnvironment({
      PORT: '8080',
      DATABASE_URL: 'postgres://user@db:5432/app',
      RATE_LIMIT_READ_PER_MINUTE: '5',
      WEBHOOK_RETRY_SCHEDULE: '1s, 2m',
      EXPIRY_SWEEP_INTERVAL: '2m',
      S3_FORCE_PATH_STYLE: 'true',
      ADMIN_TOKEN: '',
      REDIS_URL: '',
    });
    expect(environment).toMatchObject({
      PORT: 8080,
      DATABASE_URL: 'postgres://user@db:5432/app',
      RATE_LIMIT_READ_PER_MINUTE: 5,
      WEBHOOK_RETRY_SCHEDULE: [1_000, 120_000],
      EXPIRY_SWEEP_INTERVAL: 120_000,
      S3_FORCE_PATH_STYLE: true,
    });
    expect(environment.ADMIN_TOKEN).toBeUndefined();
    expect(environment.REDIS_URL).toBeUndefined();
  });

  it.each([
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['RATE_LIMIT_READ_PER_MINUTE', { RATE_LIMIT_READ_PER_MINUTE: '0' }],
    ['RATE_LIMIT_WRITE_PER_MINUTE', { RATE_LIMIT_WRITE_PER_MINUTE: '-1' }],
    ['AUTH_FAILURE_LIMIT_PER_MINUTE', { AUTH_FAILURE_LIMIT_PER_MINUTE: '2.5' }],
    ['STORAGE_DRIVER', { STORAGE_DRIVER: 'ftp' }],
    ['S3_BUCKET', { STORAGE_DRIVER: 's3' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://localhost/db' }],
    ['REDIS_URL', { REDIS_URL: 'not a url' }],
    ['ADMIN_TOKEN', { ADMIN_TOKEN: 'short' }],
    ['WEBHOOK_RETRY_SCHEDULE', { WEBHOOK_RETRY_SCHEDULE: '5s,soon' }],
    ['EXPIRY_SWEEP_INTERVAL', { EXPIRY_SWEEP_INTERVAL: '0s' }],
    ['S3_FORCE_PATH_STYLE', { S3_FORCE_PATH_STYLE: 'yes' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'verbose' }],
  ])('a bad value stops start-up with a message naming %s', (variable, source) => {
    const message = messageOf(source);
    expect(message).toMatch(/^Invalid configuration/);
    expect(message).toContain(variable);
  });

  it('treats an empty value as unset, so the default applies', () => {
    const environment = validateEnvironment({ PORT: '', RATE_LIMIT_READ_PER_MINUTE: ' ', STORAGE_DRIVER: '', DATA_DIR: '' });
    expect(environment).toMatchObject({ PORT: 3000, RATE_LIMIT_READ_PER_MINUTE: 120, STORAGE_DRIVER: 'local', DATA_DIR: './data' });
  });

  it('names every bad variable at once', () => {
    const message = messageOf({ PORT: 'abc', STORAGE_DRIVER: 'ftp' });
    expect(message).toContain('PORT');
    expect(message).toContain('STORAGE_DRIVER');
  });
});
