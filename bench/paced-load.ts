import { Agent, request } from 'node:http';
import type { BenchRequest } from './harness';

/** One paced run's outcome, as `measure` reports it. */
export interface PacedResult {
  requestsPerSecond: number;
  non2xx: number;
  errors: number;
}

export interface PacedOptions {
  baseUrl: string;
  /** Sockets kept open (at most this many requests in flight; later ones wait for a socket). */
  connections: number;
  /** Requests per second, sent evenly: one every 1000 / rate ms. */
  rate: number;
  seconds: number;
  next: () => BenchRequest;
  key?: string;
}

/**
 * An open-loop load at a fixed rate: request n is due at start + n / rate and is sent then,
 * whatever the earlier ones are doing; its latency is counted from when it was handed to the
 * sockets (a request that waited for a free socket counts that wait; the generator's own timer,
 * about a millisecond coarse, does not). autocannon's `overallRate` is a budget per
 * second instead: each connection sends as fast as it is answered until its share of the second
 * is spent, then waits for the next second, so "1,000 req/s" arrived as a burst at full speed in
 * the first ~200 ms of each second and measured a saturated server's latency.
 */
export function pacedLoad(options: PacedOptions, onResponse: (milliseconds: number, sent: BenchRequest, statusCode: number) => void): Promise<PacedResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const url = new URL(options.baseUrl);
  const total = Math.round(options.rate * options.seconds);
  const interval = 1000 / options.rate;
  let sent = 0;
  let settled = 0;
  let non2xx = 0;
  let errors = 0;
  return new Promise((resolve) => {
    const started = performance.now();
    const settle = () => {
      settled += 1;
      if (settled < total) return;
      agent.destroy();
      resolve({ requestsPerSecond: Math.round(total / ((performance.now() - started) / 1000)), non2xx, errors });
    };
    const send = () => {
      const sentAt = performance.now();
      const next = options.next();
      const headers: Record<string, string> = { ...(options.key ? { authorization: `Bearer ${options.key}` } : {}), ...next.headers };
      if (next.body !== undefined) headers['content-type'] = 'application/json';
      const outgoing = request({ host: url.hostname, port: url.port, path: next.path, method: next.method ?? 'GET', headers, agent }, (response) => {
        response.resume();
        response.on('end', () => {
          onResponse(performance.now() - sentAt, next, response.statusCode ?? 0);
          if (response.statusCode === undefined || response.statusCode < 200 || response.statusCode >= 300) non2xx += 1;
          settle();
        });
      });
      outgoing.on('error', () => {
        errors += 1;
        settle();
      });
      outgoing.end(next.body);
    };
    // Timers fire about once a millisecond: each tick sends every request that has come due.
    const tick = () => {
      const now = performance.now();
      while (sent < total && started + sent * interval <= now) {
        send();
        sent += 1;
      }
      if (sent < total) setTimeout(tick, Math.max(0, started + sent * interval - performance.now()));
    };
    tick();
  });
}
