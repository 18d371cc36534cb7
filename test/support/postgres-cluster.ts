import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { Client } from 'pg';
import { freePort } from './free-port';
import { postgresUser, toolDirectory } from './postgres-user';
import { POSTGRESQL_BINARIES } from './requirements';

/** Runs one of PostgreSQL's binaries (as the postgres user when this is root: they refuse root); rejects with its output on failure. */
function runTool(tool: string, args: string[]): Promise<void> {
  if (!POSTGRESQL_BINARIES) throw new Error("PostgreSQL's server binaries are not installed");
  const executable = path.join(POSTGRESQL_BINARIES, tool);
  const [command, commandArgs] = postgresUser() ? ['runuser', ['-u', 'postgres', '--', executable, ...args]] : [executable, args];
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${tool} ${args.join(' ')} exited ${code}: ${output.slice(-4_000)}`))));
  });
}

/**
 * A PostgreSQL cluster of the test's own (Debian's binaries, never the machine's cluster or its
 * configuration): its data, socket and log in a temporary directory, listening on a free loopback
 * port, trust authentication, pg_stat_statements loaded. `primary()` makes one with initdb;
 * `replicaOf()` a hot standby streaming from it, made with pg_basebackup.
 */
export class PostgresCluster {
  private constructor(
    private readonly directory: string,
    readonly port: number,
  ) {}

  private get dataDirectory(): string {
    return path.join(this.directory, 'data');
  }

  static async primary(): Promise<PostgresCluster> {
    const cluster = new PostgresCluster(toolDirectory('eh-primary-'), await freePort());
    await runTool('initdb', ['-D', cluster.dataDirectory, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-sync']);
    await cluster.start([]);
    return cluster;
  }

  /** A streaming replica of `primary` (pg_basebackup -R: standby.signal and primary_conninfo written for it). */
  static async replicaOf(primary: PostgresCluster): Promise<PostgresCluster> {
    const cluster = new PostgresCluster(toolDirectory('eh-replica-'), await freePort());
    await runTool('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', cluster.dataDirectory, '-R', '-X', 'stream', '--checkpoint=fast', '--no-sync']);
    await cluster.start(['-c', 'hot_standby=on']);
    return cluster;
  }

  private async start(settings: string[]): Promise<void> {
    const options = [
      '-p', String(this.port),
      '-c', 'listen_addresses=127.0.0.1',
      '-c', `unix_socket_directories=${this.directory}`,
      '-c', 'shared_preload_libraries=pg_stat_statements',
      '-c', 'wal_level=replica',
      '-c', 'max_wal_senders=4',
      // A test cluster: losing it in a crash loses nothing.
      '-c', 'fsync=off',
      '-c', 'synchronous_commit=off',
      ...settings,
    ].join(' ');
    await runTool('pg_ctl', ['-D', this.dataDirectory, '-l', path.join(this.directory, 'server.log'), '-o', options, '-w', '-t', '60', 'start']);
  }

  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  async query<Row extends Record<string, unknown>>(database: string, sql: string, parameters: unknown[] = []): Promise<Row[]> {
    const client = new Client({ connectionString: this.url(database) });
    await client.connect();
    try {
      return (await client.query<Row>(sql, parameters)).rows;
    } finally {
      await client.end();
    }
  }

  log(): string {
    try {
      return readFileSync(path.join(this.directory, 'server.log'), 'utf8').slice(-5_000);
    } catch {
      return '';
    }
  }

  async stop(): Promise<void> {
    await runTool('pg_ctl', ['-D', this.dataDirectory, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    rmSync(this.directory, { recursive: true, force: true });
  }
}
