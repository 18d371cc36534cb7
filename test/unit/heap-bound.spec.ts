import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { startScriptNodeFlags } from '../../scripts/start-flags';

/**
 * The heap bound the service ships with (docs/operations.md, "Memory") is written in package.json's
 * start script and in the Docker image's CMD; the bench runs the server with the start script's
 * flags. The two must not drift apart.
 */
const ROOT = path.resolve(__dirname, '../..');

describe('the heap bound', () => {
  it('is in npm start, and the bench reads it from there', () => {
    expect(startScriptNodeFlags()).toEqual(['--max-old-space-size=192', '--max-semi-space-size=32']);
  });

  it('is the same in the Docker image', () => {
    const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    const command = /^CMD (\[.*\])$/m.exec(dockerfile);
    expect(command).not.toBeNull();
    expect(JSON.parse(command?.[1] ?? '[]')).toEqual(['node', ...startScriptNodeFlags(), 'dist/main.js']);
  });
});
