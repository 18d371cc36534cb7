import { spawn } from 'node:child_process';

/** Fires every request at once from the child, then prints the statuses as one JSON array. */
const BURST_SCRIPT = `
const { urls, headers, timeoutMilliseconds } = JSON.parse(process.env.BURST);
Promise.all(urls.map((url) =>
  fetch(url, { headers, signal: AbortSignal.timeout(timeoutMilliseconds) })
    .then(async (response) => { await response.arrayBuffer(); return response.status; })
    .catch((error) => (error.name === 'TimeoutError' ? 'timeout' : 'network-error')),
)).then((statuses) => process.stdout.write(JSON.stringify(statuses)));
`;

export interface RequestBurst {
  /** The status of each request, in order ('timeout' or 'network-error' when there was none). */
  statuses: Promise<Array<number | string>>;
  finished(): boolean;
}

/**
 * GET requests sent all at once from a process of their own, so the test process's event loop
 * stays free to measure another client's latency during the burst without queueing behind it.
 */
export function fireRequestBurst(urls: string[], headers: Record<string, string>, timeoutMilliseconds: number): RequestBurst {
  let finished = false;
  const child = spawn(process.execPath, ['-e', BURST_SCRIPT], {
    env: { ...process.env, BURST: JSON.stringify({ urls, headers, timeoutMilliseconds }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const statuses = new Promise<Array<number | string>>((resolve, reject) => {
    child.once('exit', (code) => {
      finished = true;
      if (code === 0) resolve(JSON.parse(output) as Array<number | string>);
      else reject(new Error(`burst process exited with ${code}: ${errors}`));
    });
  });
  return { statuses, finished: () => finished };
}
