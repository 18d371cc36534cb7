import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * A server secret: the configured value, or a random one generated once into
 * DATA_DIR/secrets/<fileName> and kept across restarts. Instances that share work (local
 * storage, pagination) must be given the same configured value.
 */
export function loadServerSecret(configured: string | undefined, dataDirectory: string, fileName: string): Buffer {
  if (configured) return Buffer.from(configured, 'utf8');
  const directory = path.join(dataDirectory, 'secrets');
  const file = path.join(directory, fileName);
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  try {
    // 'wx' fails if another process created it first; then everyone reads the same secret.
    writeFileSync(file, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'utf8');
}
