import { writeFileSync } from 'node:fs';

/**
 * Preloaded into a CLI process by test/e2e/cli.e2e-spec.ts (`-r`): when the process exits, writes
 * to CLI_LOADED_MODULES_FILE which of the heavy modules (Nest, TypeORM, node-postgres) it had
 * loaded, so a test can see that an answer came before any of them (and so before any connection).
 */
const HEAVY_MODULE = /node_modules[\\/](@nestjs[\\/][^\\/]+|typeorm|pg)[\\/]/;

process.on('exit', () => {
  const file = process.env.CLI_LOADED_MODULES_FILE;
  if (!file) return;
  const heavy = new Set(Object.keys(require.cache).flatMap((id) => HEAVY_MODULE.exec(id)?.[1]?.replace('\\', '/') ?? []));
  writeFileSync(file, JSON.stringify([...heavy].sort()));
});
