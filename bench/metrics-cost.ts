import { freePort } from '../test/support/free-port';
import { cpuMilliseconds, load, measure, rotating, ScenarioResult, Server } from './harness';
import type { ScenarioContext } from './scenarios';

/** The check with metrics off and on, alternated (DESIGN §16: metrics may cost the check at most 3 % of its throughput). */
export interface MetricsCostRounds {
  adapter: ScenarioContext['adapter'];
  offRequestsPerSecond: number[];
  onRequestsPerSecond: number[];
  /** on ÷ off per round. */
  ratios: number[];
  /** The server's CPU per check (µs, from /proc): steadier than throughput on a shared machine. */
  offCpuMicroseconds: number[];
  onCpuMicroseconds: number[];
  /** Median of on ÷ off CPU per check, as a percentage over 100: the CPU metrics cost each check. */
  cpuIncreasePercent: number;
  medianRatio: number;
  /** (1 − median ratio) in percent: the throughput metrics cost. */
  dropPercent: number;
  /** entitlement_checks_total read from the metrics-on server at the end: proof it was counting. */
  countedChecks: number;
}

/** The middle value; the mean of the two middle ones for an even count (rounds come in pairs). */
function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : Math.round(((sorted[middle - 1] + sorted[middle]) / 2) * 1000) / 1000;
}

/** The sum of one metric's samples in a Prometheus text exposition. */
function sumOf(exposition: string, name: string): number {
  return exposition
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .reduce((total, line) => total + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

/**
 * Starts two fresh servers of the adapter on the same database, one with METRICS_PORT set, so
 * both are as old and as warm (the run's own server has served the seeding), then measures the
 * check (10 connections) on both, `rounds` times, alternating which goes first so the VM's drift
 * falls on both sides.
 */
export async function alternateMetricsOffAndOn(
  databaseUrl: string,
  environment: Record<string, string>,
  context: ScenarioContext,
  checkPaths: string[],
  rounds: number,
): Promise<MetricsCostRounds> {
  const metricsPort = await freePort();
  const off = await Server.start(databaseUrl, context.adapter, environment);
  const on = await Server.start(databaseUrl, context.adapter, { ...environment, METRICS_PORT: String(metricsPort) });
  const result: MetricsCostRounds = {
    adapter: context.adapter,
    offRequestsPerSecond: [],
    onRequestsPerSecond: [],
    ratios: [],
    medianRatio: 0,
    dropPercent: 0,
    offCpuMicroseconds: [],
    onCpuMicroseconds: [],
    cpuIncreasePercent: 0,
    countedChecks: 0,
  };
  const cpuRatios: number[] = [];
  try {
    const base = { adapter: context.adapter, size: context.size, warmupSeconds: 0 };
    const options = { connections: 10, seconds: context.seconds, key: context.key, next: rotating(checkPaths) };
    const run = async (server: Server, scenario: string): Promise<ScenarioResult & { cpuMicroseconds: number }> => {
      // Warm-up apart, so the CPU read covers the measured checks only.
      if (context.warmupSeconds > 0) await load(server, { ...options, seconds: context.warmupSeconds });
      const cpuBefore = cpuMilliseconds(server.pid);
      const measured = await measure(server, { ...base, scenario }, options);
      const checks = measured.requestsPerSecond * context.seconds;
      return { ...measured, cpuMicroseconds: checks > 0 ? Math.round(((cpuMilliseconds(server.pid) - cpuBefore) * 1000) / checks) : 0 };
    };
    for (let round = 0; round < rounds; round += 1) {
      const offFirst = round % 2 === 0;
      const first = await run(offFirst ? off : on, offFirst ? 'check, metrics off' : 'check, metrics on');
      const second = await run(offFirst ? on : off, offFirst ? 'check, metrics on' : 'check, metrics off');
      const [offResult, onResult] = offFirst ? [first, second] : [second, first];
      result.offCpuMicroseconds.push(offResult.cpuMicroseconds);
      result.onCpuMicroseconds.push(onResult.cpuMicroseconds);
      if (offResult.cpuMicroseconds > 0) cpuRatios.push(onResult.cpuMicroseconds / offResult.cpuMicroseconds);
      result.offRequestsPerSecond.push(offResult.requestsPerSecond);
      result.onRequestsPerSecond.push(onResult.requestsPerSecond);
      // A side that answered nothing (a smoke run's second) gives no ratio: 0, never a win.
      result.ratios.push(offResult.requestsPerSecond > 0 && onResult.requestsPerSecond > 0 ? Math.round((1000 * onResult.requestsPerSecond) / offResult.requestsPerSecond) / 1000 : 0);
    }
    result.medianRatio = median(result.ratios);
    result.dropPercent = Math.round((1 - result.medianRatio) * 1000) / 10;
    result.cpuIncreasePercent = cpuRatios.length > 0 ? Math.round((median(cpuRatios) - 1) * 1000) / 10 : 0;
    const exposition = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    result.countedChecks = sumOf(exposition, 'entitlement_checks_total');
  } finally {
    await off.stop();
    await on.stop();
  }
  return result;
}
