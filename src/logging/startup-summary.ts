import type { AppConfig } from '../config/app-config';

/**
 * Hook for the dashboard: a module that serves one provides this token with its path
 * (`{ provide: DASHBOARD_PATH, useValue: '/dashboard' }`) and start-up prints its URL.
 */
export const DASHBOARD_PATH = Symbol('DASHBOARD_PATH');

/** The demo merchant made on the first start of an empty embedded database. */
export interface DemoCredentials {
  merchantId: string;
  key: string;
  /** The demo dashboard user's one-time setup link, when the dashboard is on. */
  dashboard: { email: string; setupUrl: string } | null;
}

/** A PostgreSQL URL without its password (and user): what the summary may print. */
function describeDatabase(config: AppConfig): string {
  if (config.embeddedDatabase) return `embedded PostgreSQL (PGlite) in ${config.dataDirectory}/pg`;
  const replica = config.databaseReadUrl ? `; lists from the replica at ${hostOf(config.databaseReadUrl, 'DATABASE_READ_URL')}` : '';
  const statements = config.databasePreparedStatements ? '' : '; unnamed statements (DATABASE_PREPARED_STATEMENTS=false)';
  return `PostgreSQL at ${hostOf(config.databaseUrl ?? '', 'DATABASE_URL')}${replica}${statements}`;
}

function hostOf(databaseUrl: string, variable: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
  } catch {
    return `(${variable})`;
  }
}

function describeStorage(config: AppConfig): string {
  if (config.storageDriver === 'local') return `local files in ${config.dataDirectory}/objects`;
  const { bucket, endpoint } = config.s3;
  return `S3 bucket ${bucket ?? '(S3_BUCKET unset)'}${endpoint ? ` at ${endpoint}` : ''}`;
}

/** What is on beside the API, as bound: the metrics listener's real port (METRICS_PORT=0 takes a free one), the traces URL. */
export interface ObservabilityListeners {
  metrics: { host: string; port: number } | null;
  tracesUrl: string | null;
}

/** What the server prints once it listens: one readable block instead of Nest's route-mapping lines. */
export function startupSummary(
  config: AppConfig,
  options: { dashboardPath: string | null; demo: DemoCredentials | null; catalogue?: string[] | null; observability?: ObservabilityListeners },
): string {
  const base = config.publicBaseUrl;
  const rows: Array<[string, string]> = [
    ['database', describeDatabase(config)],
    ['storage', describeStorage(config)],
    ['HTTP adapter', config.httpAdapter],
    ['admin API', config.adminToken ? 'on (/admin/v1, Bearer ADMIN_TOKEN)' : 'off (set ADMIN_TOKEN to enable)'],
    ['private webhook URLs', config.webhookAllowPrivateUrls ? 'allowed (WEBHOOK_ALLOW_PRIVATE_URLS=true)' : 'refused (WEBHOOK_ALLOW_PRIVATE_URLS=false)'],
    ['API', `${base}/v1`],
    ['docs', `${base}/docs (OpenAPI: ${base}/docs/openapi.json)`],
    ['dashboard', options.dashboardPath ? `${base}${options.dashboardPath}` : 'not served by this build'],
  ];
  // Only when on, so the default start's summary (the README's sample) stays as it is.
  const { metrics, tracesUrl } = options.observability ?? { metrics: null, tracesUrl: null };
  if (metrics) rows.push(['metrics', `http://${metrics.host.includes(':') ? `[${metrics.host}]` : metrics.host}:${metrics.port}/metrics (METRICS_PORT)`]);
  if (tracesUrl) rows.push(['traces', `OTLP/HTTP to ${tracesUrl} (OTEL_EXPORTER_OTLP_ENDPOINT)`]);
  const lines = ['', `API listening on ${base} (port ${config.port})`, ...rows.map(([label, value]) => `  ${`${label}:`.padEnd(22)} ${value}`)];
  if (options.demo) {
    lines.push(
      '',
      '  Demo merchant created (plan free) in the embedded database.',
      `  merchant id: ${options.demo.merchantId}`,
      `  test API key (every scope; shown only this once): ${options.demo.key}`,
      `  try: curl -f -H "Authorization: Bearer ${options.demo.key}" ${base}/v1/products`,
      `  more keys: npm run cli -- api-keys:create --merchant ${options.demo.merchantId} --mode test --scopes '*'`,
    );
    if (options.catalogue) lines.push(`  demo catalogue (test mode; the /docs examples use it): ${options.catalogue.join(', ')}`);
    if (options.demo.dashboard) {
      lines.push(
        `  dashboard: set a password at ${options.demo.dashboard.setupUrl}`,
        `             (valid 24 h, once), then sign in as ${options.demo.dashboard.email} at ${base}${options.dashboardPath ?? '/dashboard'}`,
      );
    }
  }
  return `${lines.join('\n')}\n\n`;
}
