import { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/**
 * What the documentation checks share (`check-quick-start.ts`, `check-guides.ts`): a free port, a
 * newcomer's environment, a started server, and a shell block cut into steps whose answers are
 * the `# →` lines under them (`…` matches anything).
 */

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port assigned'))));
    });
  });
}

/** The environment of a newcomer's shell: no configuration of ours leaks in. */
export function cleanEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const { PATH, HOME, TMPDIR, LANG, TERM } = process.env;
  const environment: NodeJS.ProcessEnv = { PATH, HOME, TMPDIR, LANG, TERM, ...extra };
  for (const name of Object.keys(environment)) if (environment[name] === undefined) delete environment[name];
  return environment;
}

export class StartedServer {
  output = '';
  private exitCode: number | null | undefined;

  constructor(private readonly child: ChildProcess) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.once('exit', (code) => (this.exitCode = code));
  }

  get exited(): boolean {
    return this.exitCode !== undefined;
  }

  /** Ends `npm start` and the server under it (its own process group). */
  async stop(): Promise<void> {
    if (this.exited || this.child.pid === undefined) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    process.kill(-this.child.pid, 'SIGTERM');
    const killer = setTimeout(() => this.child.pid !== undefined && process.kill(-this.child.pid, 'SIGKILL'), 15_000);
    await exited;
    clearTimeout(killer);
  }
}

export interface TourStep {
  script: string[];
  expected: string | null;
}

/** The tour's shell block cut into steps, each its commands and the `# →` answer shown under them. */
export function tourSteps(block: string): TourStep[] {
  const steps: TourStep[] = [];
  let current: TourStep = { script: [], expected: null };
  for (const line of block.split('\n')) {
    const answer = /^#\s*→\s?(.*)$/.exec(line);
    const continuation = /^#\s{2,}(\S.*)$/.exec(line);
    if (answer) {
      current.expected = (current.expected === null ? '' : `${current.expected}\n`) + answer[1];
    } else if (continuation && current.expected !== null) {
      current.expected += continuation[1];
    } else {
      if (current.expected !== null) {
        steps.push(current);
        current = { script: [], expected: null };
      }
      current.script.push(line);
    }
  }
  steps.push(current);
  return steps;
}

export function answerPattern(expected: string): RegExp {
  const escaped = expected
    .split('…')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\s\\S]*?');
  return new RegExp(`^${escaped}$`);
}

