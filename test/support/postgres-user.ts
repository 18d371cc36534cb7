import { spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/** The postgres system user's ids, when this process is root (pgbouncer and PostgreSQL refuse to run as root). */
export function postgresUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const [uid, gid] = ['-u', '-g'].map((flag) => {
    const answer = spawnSync('id', [flag, 'postgres']);
    return answer.status === 0 ? Number(answer.stdout.toString().trim()) : Number.NaN;
  });
  if (!(uid > 0) || !(gid > 0)) throw new Error('running as root, and there is no postgres user to run the database tools as');
  return { uid, gid };
}

/** A temporary directory the database tools may write to (owned by postgres when this is root). */
export function toolDirectory(prefix: string): string {
  const directory = mkdtempSync(path.join(tmpdir(), prefix));
  const user = postgresUser();
  if (user) chownSync(directory, user.uid, user.gid);
  return directory;
}
