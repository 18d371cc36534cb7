import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { freePort } from '../test/support/free-port';

/** A PostgreSQL cluster of the benchmark's own: started by it, on its own loopback port, removed after. */
export interface OwnCluster {
  /** A URL of its `postgres` database (user postgres, trust on loopback). */
  url: string;
  port: number;
  directory: string;
  stop(): void;
}

/** Debian's PostgreSQL 15 binaries; SOAK_POSTGRES_BIN for another install. */
const DEFAULT_BINARIES = '/usr/lib/postgresql/15/bin';
const SYSTEM_USER = 'postgres';

/**
 * initdb + pg_ctl start of a fresh cluster in a temporary directory, listening on 127.0.0.1 only
 * (its socket in that directory), with `settings` given as `-c name=value`. initdb refuses to
 * run as root, so as root the cluster is made and run by the `postgres` system user (runuser).
 */
export async function startOwnCluster(settings: Record<string, string>): Promise<OwnCluster> {
  const binaries = process.env.SOAK_POSTGRES_BIN ?? DEFAULT_BINARIES;
  const directory = mkdtempSync(path.join(tmpdir(), 'eh-soak-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', SYSTEM_USER], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', SYSTEM_USER], { encoding: 'utf8' }).trim());
    chownSync(directory, uid, gid);
  }
  const run = (program: string, args: string[]) => {
    const command = path.join(binaries, program);
    execFileSync(asRoot ? 'runuser' : command, asRoot ? ['-u', SYSTEM_USER, '--', command, ...args] : args, { stdio: ['ignore', 'ignore', 'inherit'] });
  };
  const data = path.join(directory, 'data');
  const port = await freePort();
  run('initdb', ['--pgdata', data, '--username', 'postgres', '--auth', 'trust', '--encoding', 'UTF8', '--no-instructions']);
  const options = { port: String(port), listen_addresses: '127.0.0.1', unix_socket_directories: directory, ...settings };
  const flags = Object.entries(options)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
  run('pg_ctl', ['--pgdata', data, '--log', path.join(directory, 'server.log'), '--wait', '--options', flags, 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    directory,
    stop: () => {
      try {
        run('pg_ctl', ['--pgdata', data, '--mode', 'fast', '--wait', 'stop']);
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    },
  };
}
