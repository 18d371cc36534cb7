import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The Node flags `npm start` runs the service with (package.json's start script, between `node`
 * and `dist/main.js`): the heap bound the service ships with. The bench, the embedded smoke and
 * the test that keeps the Dockerfile's CMD equal read them here. Run directly, it prints them.
 */
export function startScriptNodeFlags(): string[] {
  const packageJson = JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const words = packageJson.scripts.start.split(/\s+/);
  return words.slice(words.indexOf('node') + 1, words.indexOf('dist/main.js'));
}

if (require.main === module) process.stdout.write(`${startScriptNodeFlags().join(' ')}\n`);
