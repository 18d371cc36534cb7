import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const REPOSITORY_ROOT = path.resolve(__dirname, '../..');

/** The real app in a child process (ts-node), on the given PostgreSQL database, so a test can SIGKILL it. */
export class AppProcess {
  private exited: Promise<number | null>;

  private constructor(
    private readonly child: ChildProcess,
    readonly baseUrl: string,
    private readonly dataDirectory: string,
  ) {
    this.exited = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
      else child.once('exit', (code) => resolve(code));
    });
  }

  static async start(databaseUrl: string, environment: Record<string, string> = {}): Promise<AppProcess> {
    const dataDirectory = mkdtempSync(path.join(tmpdir(), 'eh-child-'));
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
          ...environment,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const port = await new Promise<number>((resolve, reject) => {
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening (\d+)/.exec(output);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`app process exited (${code}) before listening: ${errors}`)));
    });
    return new AppProcess(child, `http://127.0.0.1:${port}`, dataDirectory);
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
