/** The variable through which the global setup hands worker `worker` its PostgreSQL database. */
export function workerDatabaseVariable(worker: number): string {
  return `EH_TEST_DATABASE_URL_WORKER_${worker}`;
}

/**
 * In a jest worker (per test file, from setup-environment.ts): EH_TEST_DATABASE_URL and
 * EH_TEST_DATABASE_NAME name this worker's own database, when the run has a PostgreSQL server.
 */
export function selectWorkerDatabase(): void {
  const url = process.env[workerDatabaseVariable(Number(process.env.JEST_WORKER_ID ?? '1'))];
  if (!url) return;
  process.env.EH_TEST_DATABASE_URL = url;
  process.env.EH_TEST_DATABASE_NAME = decodeURIComponent(new URL(url).pathname.slice(1));
}
