import { selectWorkerDatabase } from './worker-database';

// Tests configure apps through explicit overrides, never through the developer's environment.
for (const name of Object.keys(process.env)) {
  if (/^(PORT|DATA_DIR|STORAGE_DRIVER|PUBLIC_BASE_URL|S3_.*|REDIS_URL|ADMIN_TOKEN|RATE_LIMIT_.*|AUTH_FAILURE_.*|WEBHOOK_.*|EXPIRY_SWEEP_INTERVAL|IMPORT_POLL_INTERVAL|PRUNE_INTERVAL|LOCAL_STORAGE_SECRET|CURSOR_SECRET|HTTP_.*|LOCAL_UPLOAD_.*|DATABASE_(POOL|CHECK|ACQUIRE|STATEMENT|IDLE|TENANT)_.*|ENTITLEMENT_(TOKEN|SIGNING)_.*)$/.test(name)) {
    delete process.env[name];
  }
}
delete process.env.DATABASE_URL;
process.env.LOG_LEVEL = process.env.TEST_LOG_LEVEL ?? 'silent';
selectWorkerDatabase();
