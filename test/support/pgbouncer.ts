import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Client } from 'pg';
import { freePort } from './free-port';
import { PGBOUNCER_EXECUTABLE } from './requirements';
import { postgresUser, toolDirectory } from './postgres-user';

/**
 * Debian's PgBouncer in transaction mode in front of a PostgreSQL server, as a child of the test
 * (no system service): its configuration, log and pid file live in a temporary directory and it
 * listens on loopback only. Any database of the server is reachable through it by name; clients
 * authenticate as they would to the server (trust). The server pool is small on purpose, so the
 * clients' transactions are spread over server connections they share: a statement that relied
 * on session state (a named prepared statement, a session lock) would meet a connection without it.
 */
export class PgBouncer {
  private constructor(
    private readonly child: ChildProcess,
    private readonly directory: string,
    readonly port: number,
    private readonly server: URL,
    private readonly errors: { text: string },
  ) {}

  static async start(serverUrl: string, options: { serverConnections: number }): Promise<PgBouncer> {
    const pgbouncer = PGBOUNCER_EXECUTABLE;
    if (!pgbouncer) throw new Error('pgbouncer is not installed (apt-get install pgbouncer)');
    const server = new URL(serverUrl);
    const user = decodeURIComponent(server.username || 'postgres');
    const directory = toolDirectory('eh-pgbouncer-');
    const port = await freePort();
    writeFileSync(path.join(directory, 'users.txt'), `"${user}" ""\n`);
    writeFileSync(
      path.join(directory, 'pgbouncer.ini'),
      `[databases]
* = host=${server.hostname} port=${server.port || 5432}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
pidfile = ${directory}/pgbouncer.pid
logfile = ${directory}/pgbouncer.log
auth_type = trust
auth_file = ${directory}/users.txt
admin_users = ${user}
pool_mode = transaction
default_pool_size = ${options.serverConnections}
max_client_conn = 1000
; The service sends its timeouts as startup parameters; behind a pooler they belong to the server's
; role or database (docs/scaling.md), and PgBouncer refuses parameters it is not told to ignore.
ignore_startup_parameters = extra_float_digits,statement_timeout,idle_in_transaction_session_timeout
`,
    );
    const runAs = postgresUser() ? ['-u', 'postgres'] : [];
    const child = spawn(pgbouncer, [...runAs, path.join(directory, 'pgbouncer.ini')], { stdio: ['ignore', 'ignore', 'pipe'] });
    const errors = { text: '' };
    child.stderr?.on('data', (chunk: Buffer) => (errors.text = (errors.text + chunk.toString()).slice(-20_000)));
    const bouncer = new PgBouncer(child, directory, port, server, errors);
    const deadline = Date.now() + 15_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`pgbouncer exited (${child.exitCode}): ${errors.text} ${bouncer.log()}`);
      try {
        await bouncer.admin('SHOW VERSION');
        return bouncer;
      } catch {
        if (Date.now() > deadline) throw new Error(`pgbouncer did not listen within 15 s: ${errors.text} ${bouncer.log()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  /** `databaseUrl` (a database of the server) through the pooler. */
  urlOf(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  /** A command of PgBouncer's admin console (SHOW POOLS, SHOW CLIENTS, …): simple queries only. */
  async admin<Row extends Record<string, unknown>>(command: string): Promise<Row[]> {
    const client = new Client({ host: '127.0.0.1', port: this.port, user: decodeURIComponent(this.server.username || 'postgres'), database: 'pgbouncer' });
    await client.connect();
    try {
      return (await client.query<Row>(command)).rows;
    } finally {
      await client.end();
    }
  }

  log(): string {
    try {
      return readFileSync(path.join(this.directory, 'pgbouncer.log'), 'utf8').slice(-5_000);
    } catch {
      return '';
    }
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => (this.child.exitCode !== null ? resolve(null) : this.child.once('exit', resolve)));
    this.child.kill('SIGTERM');
    await exited;
    rmSync(this.directory, { recursive: true, force: true });
  }
}
