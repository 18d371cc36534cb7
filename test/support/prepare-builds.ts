import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';

const REPOSITORY_ROOT = path.resolve(__dirname, '../..');

/** A build output some suite needs, the sources it is made from, and the npm script that makes it. */
interface BuildStep {
  name: string;
  output: string;
  sources: string[];
  script: string;
}

/**
 * What suites need built, so that `npm test` passes on a fresh clone after `npm install` alone.
 * A suite that needs another build output adds a line here (never "run npm run build first").
 */
const BUILD_STEPS: BuildStep[] = [
  {
    name: 'the dashboard',
    output: 'dashboard/dist/index.html',
    sources: ['dashboard/src', 'dashboard/index.html', 'dashboard/vite.config.mts', 'package-lock.json'],
    script: 'dashboard:build',
  },
  {
    name: 'the customer portal',
    output: 'portal/dist/index.html',
    sources: ['portal/src', 'portal/index.html', 'portal/vite.config.mts', 'package-lock.json'],
    script: 'portal:build',
  },
];

function newestModification(entry: string): number {
  if (!existsSync(entry)) return 0;
  const status = statSync(entry);
  if (!status.isDirectory()) return status.mtimeMs;
  return readdirSync(entry).reduce((newest, child) => Math.max(newest, newestModification(path.join(entry, child))), status.mtimeMs);
}

/** Why the output must be built, or null when it is newer than all of its sources. */
function staleness(step: BuildStep): string | null {
  const output = path.join(REPOSITORY_ROOT, step.output);
  if (!existsSync(output)) return `${step.output} is missing`;
  const built = statSync(output).mtimeMs;
  const changed = step.sources.find((source) => newestModification(path.join(REPOSITORY_ROOT, source)) > built);
  return changed ? `${changed} changed since ${step.output} was built` : null;
}

/** Builds what is missing or stale, saying so in one line each. */
export function prepareBuilds(): void {
  for (const step of BUILD_STEPS) {
    const reason = staleness(step);
    if (reason === null) continue;
    const started = Date.now();
    // jest sets NODE_ENV=test, which Vite would keep: React's development build, three times the size.
    const run = spawnSync('npm', ['run', '--silent', step.script], { cwd: REPOSITORY_ROOT, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } });
    if (run.status !== 0) {
      throw new Error(`Building ${step.name} for the tests failed (npm run ${step.script}):\n${run.stdout}\n${run.stderr}`);
    }
    process.stdout.write(`test setup: built ${step.name} (${reason}) in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
}
