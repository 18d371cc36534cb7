import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { ScenarioResult } from './harness';

interface Results {
  results: ScenarioResult[];
  targets: Array<{ target: string; measured: string; met: boolean }>;
}

const format = (value: number) => value.toLocaleString('en', { maximumFractionDigits: 1 });

/**
 * `node -r ts-node/register/transpile-only bench/results-table.ts [results.json]`: the markdown
 * table bench/README.md records, Express and Fastify side by side per scenario, from a run's
 * results (bench/results.json by default), then the targets' status.
 */
function main(): void {
  const file = process.argv[2] ?? path.join(__dirname, 'results.json');
  const { results, targets } = JSON.parse(readFileSync(file, 'utf8')) as Results;
  const rows = new Map<string, Partial<Record<ScenarioResult['adapter'], ScenarioResult>>>();
  for (const result of results) {
    // The raw check server's runs sit in the check's rows (at full load, and paced), in a column of their own.
    const scenario = result.adapter === 'raw' ? result.scenario.replace(/^raw node:http \+ pg check/, 'entitlements/check').replace(/ \((limit|floor)\)$/, '') : result.scenario;
    const key = `${format(result.size)}|${scenario}|${result.connections}`;
    rows.set(key, { ...rows.get(key), [result.adapter]: result });
  }
  const limit = (result: ScenarioResult | undefined) => (result ? `${format(result.requestsPerSecond)} (p99 ${format(result.p99Milliseconds)})` : '');
  const cell = (result: ScenarioResult | undefined) =>
    result ? `${format(result.requestsPerSecond)} | ${format(result.p50Milliseconds)} | ${format(result.p99Milliseconds)} | ${format(result.peakRssMegabytes)}` : '– | – | – | –';
  const lines = [
    '| entitlements | scenario | conns | Express req/s | p50 ms | p99 ms | RSS MB | Fastify req/s | p50 ms | p99 ms | RSS MB | raw limit req/s |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...[...rows.entries()].map(([key, byAdapter]) => `| ${key.split('|').join(' | ')} | ${cell(byAdapter.express)} | ${cell(byAdapter.fastify)} | ${limit(byAdapter.raw)} |`),
    '',
    '| target | measured | status |',
    '|---|---|---|',
    ...targets.map(({ target, measured, met }) => `| ${target} | ${measured} | ${met ? 'met' : '**missed**'} |`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main();
