import 'reflect-metadata';
import { createApp } from '../../src/app-setup';

/**
 * src/main.ts for child-process tests, but listening on loopback only and reporting the port it
 * got: "listening <port>" on stdout once ready.
 */
async function start(): Promise<void> {
  const app = await createApp();
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  process.stdout.write(`listening ${address.port}\n`);
}

start().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
