import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { AppConfig } from '../../src/config/app-config';
import { validateEnvironment } from '../../src/config/config.schema';
import { Metrics } from '../../src/observability/metrics';

/**
 * docs/observability/: promtool isn't on this machine, so the alert rules and the Grafana dashboard
 * are checked as data: they parse, and every expression names only metrics the service exports
 * (a renamed metric would otherwise leave an alert that never fires).
 */
const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, 'docs', 'observability', file), 'utf8');

interface AlertRule {
  alert: string;
  expr: string;
  for: string;
  labels: { severity: string };
  annotations: { summary: string; description?: string };
}

const PROMQL_WORDS = new Set(['histogram_quantile', 'clamp_min', 'label_values', 'sum', 'max', 'rate', 'topk', 'by', 'le', 'count']);

/** The metric names of a PromQL expression: identifiers outside label matchers and grouping clauses, PromQL's own words aside. */
function metricNamesOf(expression: string): string[] {
  const bare = expression
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\b(by|without)\s*\([^)]*\)/g, '')
    .replace(/\[[^\]]*\]/g, '');
  return [...bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)].map((match) => match[0]).filter((word) => !PROMQL_WORDS.has(word) && word.includes('_'));
}

async function exportedNames(): Promise<Set<string>> {
  const metrics = new Metrics(new AppConfig(validateEnvironment({ METRICS_PORT: '0' })));
  const names = new Set<string>();
  for (const metric of await metrics.registry.getMetricsAsJSON()) {
    names.add(metric.name);
    if (String(metric.type) === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${metric.name}${suffix}`);
  }
  return names;
}

describe('docs/observability', () => {
  let exported: Set<string>;
  beforeAll(async () => {
    exported = await exportedNames();
  });

  it('exports the metrics of DESIGN §16 and the default process metrics', () => {
    for (const name of [
      'http_requests_total',
      'http_request_duration_seconds_bucket',
      'entitlement_checks_total',
      'db_pool_connections',
      'db_errors_total',
      'webhook_deliveries_pending',
      'webhook_oldest_pending_age_seconds',
      'webhook_attempts_total',
      'import_rows_processed_total',
      'rate_limited_total',
      'auth_failures_total',
      'process_cpu_seconds_total',
    ]) {
      expect(exported).toContain(name);
    }
  });

  it('has alert rules for 5xx rate, the check p99, the oldest pending delivery, pool waiting and database errors, on exported metrics', () => {
    const document = parse(read('alerts.yml')) as { groups: Array<{ name: string; rules: AlertRule[] }> };
    const rules = document.groups.flatMap((group) => group.rules);
    expect(rules.map((rule) => rule.alert)).toHaveLength(5);
    const named = (metric: string) => rules.filter((rule) => metricNamesOf(rule.expr).includes(metric));
    expect(named('http_requests_total')).toHaveLength(1);
    expect(named('http_request_duration_seconds_bucket')[0].expr).toContain('route="/v1/entitlements/check"');
    expect(named('webhook_oldest_pending_age_seconds')).toHaveLength(1);
    expect(named('db_pool_connections')[0].expr).toContain('state="waiting"');
    expect(named('db_errors_total')).toHaveLength(1);
    for (const rule of rules) {
      expect(rule).toMatchObject({ alert: expect.stringMatching(/^[A-Za-z0-9]+$/), for: expect.stringMatching(/^\d+[smh]$/), labels: { severity: expect.any(String) }, annotations: { summary: expect.any(String) } });
      const names = metricNamesOf(rule.expr);
      expect({ alert: rule.alert, unknown: names.filter((name) => !exported.has(name)) }).toEqual({ alert: rule.alert, unknown: [] });
      expect(names.length).toBeGreaterThan(0);
    }
  });

  it('has an importable Grafana dashboard whose every query names exported metrics', () => {
    const dashboard = JSON.parse(read('grafana-dashboard.json')) as {
      uid: string;
      title: string;
      templating: { list: Array<{ name: string; type: string }> };
      panels: Array<{ title: string; datasource: { uid: string }; targets: Array<{ expr: string }> }>;
    };
    expect(dashboard).toMatchObject({ uid: 'entitlement-api', title: expect.any(String) });
    // The data source is a variable: the dashboard imports into any Grafana, and provisioning picks the default.
    expect(dashboard.templating.list.find((variable) => variable.name === 'datasource')).toMatchObject({ type: 'datasource' });
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(10);
    for (const panel of dashboard.panels) {
      expect(panel.datasource.uid).toBe('${datasource}');
      for (const target of panel.targets) {
        const names = metricNamesOf(target.expr.replace(/\$__rate_interval/g, '5m'));
        expect({ panel: panel.title, unknown: names.filter((name) => !exported.has(name)) }).toEqual({ panel: panel.title, unknown: [] });
        expect(names.length).toBeGreaterThan(0);
      }
    }
  });

  it('has a Prometheus configuration that loads the rules and scrapes the metrics port of docker-compose.yml', () => {
    const prometheus = parse(read('prometheus.yml')) as { rule_files: string[]; scrape_configs: Array<{ static_configs: Array<{ targets: string[] }> }> };
    expect(prometheus.rule_files).toEqual(['/etc/prometheus/alerts.yml']);
    const compose = parse(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, { environment?: Record<string, string> }> };
    const port = compose.services.api.environment?.METRICS_PORT;
    expect(prometheus.scrape_configs[0].static_configs[0].targets).toContain(`api:${port}`);
  });
});
