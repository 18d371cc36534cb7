import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { seedEmbeddedDatabase, testDataDirectory } from './embedded-template';
import { testHttpAdapter } from './test-adapter';

const REPOSITORY_ROOT = path.resolve(__dirname, '../..');

/** The real app in a child process (ts-node), on the given PostgreSQL database, so a test can SIGKILL it. */
export class AppProcess {
  private exited: Promise<number | null>;
  private exitStatus: { code: number | null; signal: NodeJS.Signals | null } | null = null;

  private constructor(
    private readonly child: ChildProcess,
    readonly baseUrl: string,
    private readonly dataDirectory: string,
    private readonly errorOutput: { text: string },
  ) {
    child.once('exit', (code, signal) => (this.exitStatus = { code, signal }));
    this.exited = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
      else child.once('exit', (code) => resolve(code));
    });
  }

  /** `databaseUrl` '' gives the child an embedded database of its own. */
  static async start(databaseUrl: string, environment: Record<string, string> = {}): Promise<AppProcess> {
    const dataDirectory = testDataDirectory('eh-child-');
    if (!databaseUrl) seedEmbeddedDatabase(dataDirectory);
    const child = spawn(
      process.execPath,
      ['--experimental-vm-modules', '-r', 'ts-node/register/transpile-only', path.join('test', 'support', 'app-child-main.ts')],
      {
        cwd: REPOSITORY_ROOT,
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          DATA_DIR: dataDirectory,
          SKIP_DEMO_SEED: 'true',
          LOG_LEVEL: 'silent',
          RATE_LIMIT_READ_PER_MINUTE: '100000',
          RATE_LIMIT_WRITE_PER_MINUTE: '100000',
          AUTH_FAILURE_LIMIT_PER_MINUTE: '100000',
          // As test-app.ts: a loaded machine must not turn a queue into 503s; fault tests set their own.
          DATABASE_ACQUIRE_TIMEOUT: '60s',
          DATABASE_TENANT_QUEUE_TIMEOUT: '60s',
          MERCHANT_REQUEST_QUEUE_TIMEOUT: '60s',
          MERCHANT_REQUESTS_IN_FLIGHT: '1000',
          HTTP_ADAPTER: testHttpAdapter(),
          ...environment,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const errors = { text: '' };
    child.stderr?.on('data', (chunk: Buffer) => (errors.text = (errors.text + chunk.toString()).slice(-20_000)));
    const port = await new Promise<number>((resolve, reject) => {
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening (\d+)/.exec(output);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`app process exited (${code}) before listening: ${errors.text}`)));
    });
    return new AppProcess(child, `http://127.0.0.1:${port}`, dataDirectory, errors);
  }

  /** How the process ended, or null while it runs (a fault test asserts it never ended by itself). */
  get exit(): { code: number | null; signal: NodeJS.Signals | null } | null {
    return this.exitStatus;
  }

  /** The last 20 kB the process wrote on stderr (why it died, if it did). */
  get stderr(): string {
    return this.errorOutput.text;
  }

  /** The server process's resident memory, from /proc (Linux). */
  residentBytes(): number {
    const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
    if (!match) throw new Error('VmRSS not found in /proc/<pid>/status');
    return Number(match[1]) * 1024;
  }

  /** The crash: no shutdown hooks, no finally blocks. */
  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
    rmSync(this.dataDirectory, { recursive: true, force: true });
  }

  /** Graceful stop (shutdown hooks run). */
  async stop(): Promise<void> {
    this.child.kill('SIGTERM');
    await this.exited;
    rmSync(this.dataDirectory, { recursive: true, force: true });
  }
}
