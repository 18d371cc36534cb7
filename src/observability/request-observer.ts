import { Injectable } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Metrics, UNMATCHED_ROUTE } from './metrics';

/**
 * Counts and times every request once it is answered, on either adapter and on the direct routes
 * alike (the exchange's start calls it: src/http/exchange-start.ts). `route` is read when the
 * response is sent: the matched pattern, never the raw path.
 */
@Injectable()
export class RequestObserver {
  constructor(private readonly metrics: Metrics) {}

  observe(request: IncomingMessage, response: ServerResponse, route: () => string | undefined): void {
    if (!this.metrics.enabled) return;
    const startedAt = performance.now();
    response.once('finish', () => {
      this.metrics.request(request.method ?? 'GET', route() ?? UNMATCHED_ROUTE, response.statusCode, (performance.now() - startedAt) / 1000);
    });
  }
}
