import 'reflect-metadata';
import { createApp } from './app-setup';
import { AppConfig } from './config/app-config';

async function bootstrap(): Promise<void> {
  const app = await createApp();
  const config = app.get(AppConfig);
  await app.listen(config.port, config.host);
  process.stdout.write(`API listening on http://localhost:${config.port} (Swagger UI: http://localhost:${config.port}/docs)\n`);
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
