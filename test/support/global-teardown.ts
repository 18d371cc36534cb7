import { Client } from 'pg';

/** Drops the run's per-worker databases (global-setup.ts). */
export default async function globalTeardown(): Promise<void> {
  const serverUrl = process.env.EH_TEST_SERVER_URL;
  const names = (process.env.EH_TEST_DATABASE_NAMES ?? '').split(',').filter((name) => name !== '');
  if (!serverUrl || names.length === 0) return;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    for (const name of names) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
