import { Client } from 'pg';

export default async function globalTeardown(): Promise<void> {
  const serverUrl = process.env.EH_TEST_SERVER_URL;
  const name = process.env.EH_TEST_DATABASE_NAME;
  if (!serverUrl || !name) return;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
}
