import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppConfig } from '../src/config/app-config';
import { validateEnvironment } from '../src/config/config.schema';
import { Metrics } from '../src/observability/metrics';
import { RequestObserver } from '../src/observability/request-observer';
import { StatementObserver } from '../src/observability/statement-observer';
import { Tracing } from '../src/observability/tracing';

/**
 * `node -r ts-node/register/transpile-only bench/metrics-overhead.ts`: what metrics add to one
 * check in CPU, measured in-process (no server, no network, no database), so a loaded shared
 * machine can't drown it: the request observer (a 'finish' listener, two clocks, the series'
 * counters), the check's result counter and the statement wrapper's failure count, each with
 * metrics off and on. Compare with the check's server CPU per request (~100 µs here:
 * bench/README.md, "Metrics cost").
 */
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 1_000_000);

function observers(metricsPort: string | undefined): { metrics: Metrics; requests: RequestObserver; statements: StatementObserver } {
  const config = new AppConfig(validateEnvironment({ METRICS_PORT: metricsPort }));
  const metrics = new Metrics(config);
  // Tracing off: the overhead measured is metrics'.
  const tracing = new Tracing(null);
  return { metrics, requests: new RequestObserver(metrics, tracing), statements: new StatementObserver(metrics, tracing) };
}

/** Nanoseconds per iteration of `work`, after a warm-up of the same length. */
function nanosecondsPer(work: (index: number) => void): number {
  for (let index = 0; index < ITERATIONS; index += 1) work(index);
  const started = process.hrtime.bigint();
  for (let index = 0; index < ITERATIONS; index += 1) work(index);
  return Number(process.hrtime.bigint() - started) / ITERATIONS;
}

function oneCheck({ metrics, requests, statements }: ReturnType<typeof observers>, index: number): void {
  const request = { method: 'GET', url: '/v1/entitlements/check?customer_id=cus_1&product_id=prod_1' } as IncomingMessage;
  const response = Object.assign(new EventEmitter(), { statusCode: 200 }) as unknown as ServerResponse;
  requests.observe(request, response, 'req_1', () => '/v1/entitlements/check');
  statements.begin('SELECT 1')();
  metrics.entitlementCheck(index % 2 === 0);
  response.emit('finish');
}

function main(): void {
  const off = observers(undefined);
  const on = observers('0');
  // The bare cost of the fake request and response, to subtract.
  const baseline = nanosecondsPer(() => {
    const response = new EventEmitter();
    response.emit('finish');
  });
  const offNanoseconds = nanosecondsPer((index) => oneCheck(off, index));
  const onNanoseconds = nanosecondsPer((index) => oneCheck(on, index));
  const added = onNanoseconds - offNanoseconds;
  process.stdout.write(
    `${ITERATIONS.toLocaleString('en')} checks each: baseline ${baseline.toFixed(0)} ns, metrics off ${offNanoseconds.toFixed(0)} ns, metrics on ${onNanoseconds.toFixed(0)} ns: ` +
      `metrics add ${added.toFixed(0)} ns (${((added / 100_000) * 100).toFixed(2)} % of a 100 µs check)\n`,
  );
}

main();
