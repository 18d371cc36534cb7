import type { Metric } from 'prom-client';

/** Upper bounds in seconds of the request-duration buckets, from the API's fastest (the check) to a slow upload's. */
export const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** One method and route's requests: counts by status, and its duration histogram. */
interface RouteSeries {
  method: string;
  route: string;
  statuses: Map<number, number>;
  /** Per bucket, not cumulative; the last one is +Inf. */
  buckets: number[];
  sum: number;
  count: number;
}

/** A sample as prom-client's registry formats it. */
interface Sample {
  metricName?: string;
  labels: Record<string, string | number>;
  value: number;
}

/**
 * A metric whose samples are computed when scraped. prom-client's own labelled metrics hash their
 * labels into a string on every increment; the request path only bumps numbers in maps it already
 * holds, and the registry reads them here.
 */
export function scrapedMetric(name: string, help: string, type: 'counter' | 'histogram', samples: () => Sample[]): Metric {
  const metric = {
    name,
    help,
    type,
    aggregator: 'sum',
    get: () => Promise.resolve({ name, help, type, aggregator: 'sum', values: samples() }),
    reset: () => undefined,
  };
  // The registry needs only these members (registry.js: name, get(), reset()).
  return metric as unknown as Metric;
}

/**
 * http_requests_total and http_request_duration_seconds, kept as plain numbers: recording a
 * request allocates nothing once its method, route and status have been seen.
 */
export class RouteRequests {
  private readonly byMethod = new Map<string, Map<string, RouteSeries>>();

  record(method: string, route: string, status: number, seconds: number): void {
    let byRoute = this.byMethod.get(method);
    if (byRoute === undefined) {
      byRoute = new Map();
      this.byMethod.set(method, byRoute);
    }
    let series = byRoute.get(route);
    if (series === undefined) {
      series = { method, route, statuses: new Map(), buckets: new Array<number>(DURATION_BUCKETS.length + 1).fill(0), sum: 0, count: 0 };
      byRoute.set(route, series);
    }
    series.statuses.set(status, (series.statuses.get(status) ?? 0) + 1);
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]) bucket += 1;
    series.buckets[bucket] += 1;
    series.sum += seconds;
    series.count += 1;
  }

  metrics(): Metric[] {
    const all = () => [...this.byMethod.values()].flatMap((byRoute) => [...byRoute.values()]);
    const requests = scrapedMetric('http_requests_total', 'HTTP requests answered, by method, route pattern and status', 'counter', () =>
      all().flatMap(({ method, route, statuses }) => [...statuses].map(([status, value]) => ({ labels: { method, route, status }, value }))),
    );
    const durations = scrapedMetric(
      'http_request_duration_seconds',
      'Time from a request reaching the service to its response being sent, by method and route pattern',
      'histogram',
      () =>
        all().flatMap(({ method, route, buckets, sum, count }) => {
          let cumulative = 0;
          const samples: Sample[] = buckets.map((inBucket, index) => {
            cumulative += inBucket;
            const le = index < DURATION_BUCKETS.length ? DURATION_BUCKETS[index] : '+Inf';
            return { metricName: 'http_request_duration_seconds_bucket', labels: { method, route, le }, value: cumulative };
          });
          samples.push({ metricName: 'http_request_duration_seconds_sum', labels: { method, route }, value: sum });
          samples.push({ metricName: 'http_request_duration_seconds_count', labels: { method, route }, value: count });
          return samples;
        }),
    );
    return [requests, durations];
  }
}
