import { ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';
import { eventually } from './eventually';

const REPOSITORY_ROOT = path.resolve(__dirname, '../..');

export interface RunningService {
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts src/main.ts the way a newcomer would, in `directory` (its ./data holds the embedded
 * database), with no environment but PORT and `environment`: an empty directory is a first start,
 * which seeds the demo merchant and its catalogue. Bound to loopback (HOST, and loopback-only.ts
 * for any server given only a port).
 */
export function startService(directory: string, port: number, environment: Record<string, string> = {}): RunningService {
  let output = '';
  const child = spawn(
    process.execPath,
    [
      '--experimental-vm-modules',
      '-r',
      require.resolve('ts-node/register/transpile-only', { paths: [REPOSITORY_ROOT] }),
      '-r',
      path.join(REPOSITORY_ROOT, 'test/support/loopback-only.ts'),
      path.join(REPOSITORY_ROOT, 'src/main.ts'),
    ],
    {
      cwd: directory,
      // Only PATH, HOME, PORT and HOST for the app; TS_NODE_PROJECT only tells the test's TypeScript loader where the compiler options are.
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? directory,
        PORT: String(port),
        HOST: '127.0.0.1',
        TS_NODE_PROJECT: path.join(REPOSITORY_ROOT, 'tsconfig.json'),
        ...environment,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function waitUntilListening(service: RunningService): Promise<void> {
  await eventually(
    async () => {
      if (service.child.exitCode !== null) throw new Error(`the service exited:\n${service.output()}`);
      return service.output().includes('API listening');
    },
    150_000,
    250,
  );
}

/** The demo merchant's key and id as the first start printed them. */
export function demoCredentials(output: string): { key: string; merchantId: string } {
  const key = /test API key[^:]*: (eh_test_[0-9A-Za-z]{32,})/.exec(output);
  const merchant = /merchant id: (mer_[0-9a-z]{26})/.exec(output);
  if (!key || !merchant) throw new Error(`no demo credentials in the first start's output:\n${output}`);
  return { key: key[1], merchantId: merchant[1] };
}
