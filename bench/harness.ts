import autocannon from 'autocannon';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { freePort } from '../test/support/free-port';
import { startScriptNodeFlags } from '../scripts/start-flags';
import type { HotUpdates } from './hot-updates';
import { pacedLoad } from './paced-load';

/**
 * The benchmark's harness: the server under test in a child process, an autocannon load with
 * per-request method, path, body and headers, and a measurement that ranks every response time.
 */
export const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
// The server signs cursors with this secret; the harness forges its deep-page cursor with the same one.
export const CURSOR_SECRET = 'bench-cursor-secret-0123456789abcdef';
const REPOSITORY = path.join(__dirname, '..');

/**
 * WEBHOOK_ENDPOINT_CONCURRENCY of the benchmark's servers: 500 deliveries/s to a receiver 50 ms
 * away need ≥ 25 in flight (Little's law), more than the default 10 allows (≤ 200/s).
 */
export const BENCH_WEBHOOK_CONCURRENCY = '50';

/** Both HTTP adapters, measured side by side in one run on the same data; targets are the default's (express). */
export type Adapter = 'express' | 'fastify';

/** Who served a scenario: the service on one adapter, or the raw check server (the limit). */
export type Served = Adapter | 'raw';

export interface ScenarioResult {
  adapter: Served;
  size: number;
  scenario: string;
  connections: number;
  requestsPerSecond: number;
  p50Milliseconds: number;
  p99Milliseconds: number;
  non2xx: number;
  errors: number;
  peakRssMegabytes: number;
  /** Download scenarios: the HOT share of the entitlements' updates in the run (bench/hot-updates.ts). */
  entitlementHot?: HotUpdates;
}

/** A self-signed certificate for 127.0.0.1, which the servers trust (NODE_EXTRA_CA_CERTS). */
export interface LoopbackCertificate {
  keyPath: string;
  certificatePath: string;
}

let certificate: LoopbackCertificate | null = null;

/**
 * The certificate of the benchmark's webhook receiver: live-mode endpoints must be https, and a
 * receiver that answers 2xx is what a healthy merchant has (each event sent once, no retries
 * piling up behind later scenarios). Made once per run with the `openssl` command.
 */
export function loopbackCertificate(): LoopbackCertificate {
  if (certificate) return certificate;
  const directory = mkdtempSync(path.join(tmpdir(), 'eh-bench-tls-'));
  const paths = { keyPath: path.join(directory, 'key.pem'), certificatePath: path.join(directory, 'certificate.pem') };
  // prettier-ignore
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', paths.keyPath, '-out', paths.certificatePath], { stdio: 'ignore' });
  certificate = paths;
  return certificate;
}

/** A database of a benchmark script's own on the PostgreSQL server it was given. */
export interface ScratchDatabase {
  /** Its connection URL. */
  url: string;
  name: string;
  /** A connection to the server's own database (the one the script was given). */
  admin: Client;
  /** Drops the database (unless BENCH_KEEP_DATABASE=1) and closes `admin`. */
  drop(): Promise<void>;
}

/** The PostgreSQL server of BENCH_DATABASE_URL or DATABASE_URL. */
export function benchServerUrl(): string {
  const serverUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('Set DATABASE_URL to a PostgreSQL server; the benchmark creates a database of its own there.');
  return serverUrl;
}

/** Creates `<prefix>_<time>` on the server of `serverUrl` (default: BENCH_DATABASE_URL or DATABASE_URL). */
export async function createScratchDatabase(prefix: string, serverUrl = benchServerUrl()): Promise<ScratchDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    admin,
    drop: async () => {
      if (process.env.BENCH_KEEP_DATABASE !== '1') await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** Runs a benchmark script's main: its error's stack on stderr and exit code 1 when it fails. */
export function runScript(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}

const CLOCK_TICKS_PER_SECOND = 100;

/** User + system CPU time a process has used so far, in milliseconds (/proc/<pid>/stat); 0 once it is gone. */
export function cpuMilliseconds(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces) start at state; utime and stime are 14th and 15th overall.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** CPU used by a server and by the PostgreSQL backends connected to its database, between start() and stop(). */
export interface CpuUse {
  serverMilliseconds: number;
  databaseMilliseconds: number;
}

/**
 * Measures the CPU a scenario costs on this machine, whatever else runs on it: the server's own
 * and that of the PostgreSQL backends serving `database` (same machine: /proc). A backend that
 * connects meanwhile counts from zero.
 */
export async function startCpuProbe(serverPid: number, admin: Client, database: string): Promise<{ stop(): Promise<CpuUse> }> {
  const backends = async () =>
    (await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database])).rows.map((row) => row.pid);
  const serverBefore = cpuMilliseconds(serverPid);
  const databaseBefore = new Map((await backends()).map((pid) => [pid, cpuMilliseconds(pid)]));
  return {
    async stop() {
      const serverMilliseconds = cpuMilliseconds(serverPid) - serverBefore;
      let databaseMilliseconds = 0;
      for (const pid of new Set([...databaseBefore.keys(), ...(await backends())])) {
        const now = cpuMilliseconds(pid);
        // A backend that left meanwhile reads 0: its share is lost rather than negative.
        if (now > 0) databaseMilliseconds += now - (databaseBefore.get(pid) ?? 0);
      }
      return { serverMilliseconds, databaseMilliseconds };
    },
  };
}

export function residentMegabytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status);
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * BENCH_LOAD_CPUS (e.g. `1`): the load generator (this process, every thread) runs on those
 * cores and the servers on the others, with `taskset`, so the two stop taking turns on one core.
 * PostgreSQL is left where the system puts it. Unset: no pinning.
 */
export interface CpuPinning {
  load: string;
  server: string;
}

export function pinLoadGenerator(): CpuPinning | null {
  const load = process.env.BENCH_LOAD_CPUS;
  if (!load) return null;
  const loadCpus = new Set(load.split(',').map(Number));
  const serverCpus = Array.from({ length: availableParallelism() }, (_, cpu) => cpu).filter((cpu) => !loadCpus.has(cpu));
  if (serverCpus.length === 0) throw new Error(`BENCH_LOAD_CPUS=${load} leaves no core for the server`);
  execFileSync('taskset', ['--all-tasks', '--cpu-list', '--pid', load, String(process.pid)], { stdio: 'ignore' });
  pinning = { load, server: serverCpus.join(',') };
  return pinning;
}

let pinning: CpuPinning | null = null;

export class Server {
  private constructor(
    private readonly child: ChildProcess,
    readonly baseUrl: string,
  ) {}

  /** The built service, run with the Node flags of `npm start` (its heap bound), as it ships. */
  static start(databaseUrl: string, adapter: Adapter, environment: Record<string, string> = {}): Promise<Server> {
    return Server.spawn([path.join(REPOSITORY, 'dist', 'main.js')], databaseUrl, { HTTP_ADAPTER: adapter, ...environment }, startScriptNodeFlags());
  }

  /**
   * The machine's limit for the check (bench/raw-check-server.ts): `node:http` and `pg` with the
   * service's SQL and nothing else, answering for one merchant's live mode.
   */
  static startRawCheck(databaseUrl: string, merchantId: string): Promise<Server> {
    return Server.spawn(['-r', 'ts-node/register/transpile-only', path.join(REPOSITORY, 'bench', 'raw-check-server.ts')], databaseUrl, { MERCHANT_ID: merchantId });
  }

  /**
   * The machine's limit for a list page (bench/raw-list-server.ts): `node:http` and `pg` with the
   * service's page and count statements, for one merchant's live mode.
   */
  static startRawList(databaseUrl: string, merchantId: string): Promise<Server> {
    return Server.spawn(['-r', 'ts-node/register/transpile-only', path.join(REPOSITORY, 'bench', 'raw-list-server.ts')], databaseUrl, { MERCHANT_ID: merchantId });
  }

  private static async spawn(script: string[], databaseUrl: string, environment: Record<string, string>, shippedFlags: string[] = []): Promise<Server> {
    const port = await freePort();
    // BENCH_NODE_OPTIONS: flags for the server only (e.g. --cpu-prof --cpu-prof-dir=/tmp/profiles),
    // after the shipped ones, so a flag given there wins (V8 takes the last).
    const nodeFlags = (process.env.BENCH_NODE_OPTIONS ?? '').split(' ').filter((flag) => flag.length > 0);
    const command = [process.execPath, ...shippedFlags, ...nodeFlags, ...script];
    if (pinning) command.unshift('taskset', '--cpu-list', pinning.server);
    const child = spawn(command[0], command.slice(1), {
      cwd: REPOSITORY,
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        DATABASE_URL: databaseUrl,
        ADMIN_TOKEN,
        CURSOR_SECRET,
        // Raised for the run; the limiter still counts every request.
        RATE_LIMIT_READ_PER_MINUTE: '100000000',
        RATE_LIMIT_WRITE_PER_MINUTE: '100000000',
        LOG_LEVEL: 'warn',
        DATA_DIR: path.join(REPOSITORY, 'data', 'bench'),
        // The write scenarios' webhook endpoint is a loopback receiver of the benchmark's own.
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        NODE_EXTRA_CA_CERTS: loopbackCertificate().certificatePath,
        ...environment,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('API listening')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
    });
    return new Server(child, `http://127.0.0.1:${port}`);
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}

/** One API call; the envelope's `data`, or with `whole` the whole envelope (pagination included). */
export async function api<T>(baseUrl: string, method: string, route: string, token: string, body?: unknown, whole = false): Promise<T> {
  const response = await fetch(`${baseUrl}${route}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route} → ${response.status} ${text}`);
  const envelope = JSON.parse(text) as { data: T };
  return whole ? (envelope as unknown as T) : envelope.data;
}

/** The q-quantile of sorted values (nearest rank), to 0.1 ms. */
export function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  const value = sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return Math.round(value * 10) / 10;
}

export interface BenchRequest {
  method?: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

export interface LoadOptions {
  connections: number;
  seconds: number;
  /** The next request to send (called once per request). */
  next: () => BenchRequest;
  key?: string;
  /**
   * Requests per second across all connections, sent evenly (bench/paced-load.ts; `measure` only);
   * unset = as fast as answered (autocannon).
   */
  overallRate?: number;
}

/** Cycles through `paths` (GET). */
export function rotating(paths: string[]): () => BenchRequest {
  let index = 0;
  return () => ({ path: paths[index++ % paths.length] });
}

/** Runs autocannon; `onResponse` sees every response time (hrtime, fractional ms). */
export function load(server: Server, options: LoadOptions, onResponse: (milliseconds: number) => void = () => undefined): Promise<autocannon.Result> {
  return new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: server.baseUrl,
        connections: options.connections,
        duration: options.seconds,
        headers: options.key ? { authorization: `Bearer ${options.key}` } : {},
        requests: [
          {
            setupRequest: (request) => {
              const next = options.next();
              return {
                ...request,
                method: next.method ?? 'GET',
                path: next.path,
                ...(next.body === undefined ? {} : { body: next.body }),
                headers: { ...request.headers, ...(next.body === undefined ? {} : { 'content-type': 'application/json' }), ...next.headers },
              };
            },
          },
        ],
      },
      (error, value) => (error ? reject(error) : resolve(value)),
    );
    instance.on('response', (_client, _statusCode, _bytes, responseTime) => onResponse(responseTime));
  });
}

export interface Measurement {
  adapter: Served;
  size: number;
  scenario: string;
  warmupSeconds: number;
}

export async function measure(server: Server, measurement: Measurement, options: LoadOptions): Promise<ScenarioResult> {
  // Steady state: JIT compilation, first-use prepared statements and connection set-up happen in
  // an unrecorded warm-up, not in the measured percentiles.
  if (measurement.warmupSeconds > 0) await load(server, { ...options, seconds: measurement.warmupSeconds });
  let peakRss = residentMegabytes(server.pid, 'VmRSS');
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, residentMegabytes(server.pid, 'VmRSS'));
  }, 100);
  // autocannon's own percentiles are whole milliseconds, too coarse for a 3 ms endpoint (3 vs 4 ms
  // reads as 1.33×): every response time is kept and ranked here.
  const latencies: number[] = [];
  const record = (milliseconds: number) => latencies.push(milliseconds);
  const { overallRate } = options;
  const result =
    overallRate === undefined
      ? await load(server, options, record).then((run) => ({ requestsPerSecond: Math.round(run.requests.average), non2xx: run.non2xx, errors: run.errors + run.timeouts }))
      : await pacedLoad({ baseUrl: server.baseUrl, connections: options.connections, rate: overallRate, seconds: options.seconds, next: options.next, key: options.key }, record);
  clearInterval(sampler);
  latencies.sort((left, right) => left - right);
  return {
    adapter: measurement.adapter,
    size: measurement.size,
    scenario: measurement.scenario,
    connections: options.connections,
    requestsPerSecond: result.requestsPerSecond,
    p50Milliseconds: percentile(latencies, 0.5),
    p99Milliseconds: percentile(latencies, 0.99),
    non2xx: result.non2xx,
    errors: result.errors,
    peakRssMegabytes: Math.round(peakRss),
  };
}
