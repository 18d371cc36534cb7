import { Client } from 'pg';

/**
 * With TEST_DATABASE_URL (or DATABASE_URL) the run gets a database of its own on that server,
 * created here and dropped after, so concurrent runs never collide. Without, every test app
 * starts its own embedded database (see test-app.ts).
 */
export default async function globalSetup(): Promise<void> {
  const serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  if (!serverUrl) return;
  const name = `eh_test_${process.pid}_${Date.now().toString(36)}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  process.env.EH_TEST_SERVER_URL = serverUrl;
  process.env.EH_TEST_DATABASE_NAME = name;
  process.env.EH_TEST_DATABASE_URL = url.toString();
}
