import { Injectable } from '@nestjs/common';
import type { Span } from '@opentelemetry/api';
import { SpanStatusCode } from '@opentelemetry/api';
import { ATTR_HTTP_REQUEST_METHOD, ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_HTTP_ROUTE, ATTR_URL_PATH } from './span-attributes';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Metrics, UNMATCHED_ROUTE } from './metrics';
import { TraceIds, traceIdsOf, Tracing } from './tracing';

/** The span attribute carrying the request id (X-Request-Id), which the log line and error bodies show too. */
export const REQUEST_ID_ATTRIBUTE = 'http.request.id';

/** A traced request: its ids for the log line, and what runs inside its span. */
export interface RequestTrace {
  ids: TraceIds;
  run(work: () => void): void;
}

/** Only the path: a query string may carry a signed URL's token. */
function pathOf(url: string): string {
  const queryStart = url.indexOf('?');
  return queryStart === -1 ? url : url.slice(0, queryStart);
}

/**
 * Counts and times every request once it is answered, and traces it when tracing is on, on either
 * adapter and on the direct routes alike (the exchange's start calls it: src/http/exchange-start.ts).
 * `route` is read when the response is sent: the matched pattern, never the raw path.
 */
@Injectable()
export class RequestObserver {
  constructor(
    private readonly metrics: Metrics,
    private readonly tracing: Tracing,
  ) {}

  /** Starts watching a request; its trace (null when tracing is off), in whose span the request is to be handled. */
  observe(request: IncomingMessage, response: ServerResponse, requestId: string, route: () => string | undefined): RequestTrace | null {
    if (this.metrics.enabled) {
      const startedAt = performance.now();
      // 'finish' comes once: on() spares once()'s wrapper.
      response.on('finish', () => {
        this.metrics.request(request.method ?? 'GET', route() ?? UNMATCHED_ROUTE, response.statusCode, (performance.now() - startedAt) / 1000);
      });
    }
    if (!this.tracing.enabled) return null;
    return this.trace(request, response, requestId, route);
  }

  private trace(request: IncomingMessage, response: ServerResponse, requestId: string, route: () => string | undefined): RequestTrace | null {
    const method = request.method ?? 'GET';
    const span = this.tracing.startRequestSpan(method, {
      [ATTR_HTTP_REQUEST_METHOD]: method,
      [ATTR_URL_PATH]: pathOf(request.url ?? '/'),
      [REQUEST_ID_ATTRIBUTE]: requestId,
    });
    if (!span) return null;
    // 'close' comes after 'finish', and also when the client went away before the answer.
    response.once('close', () => endRequestSpan(span, method, route(), response));
    return { ids: traceIdsOf(span), run: (work) => this.tracing.within(span, work) };
  }
}

function endRequestSpan(span: Span, method: string, route: string | undefined, response: ServerResponse): void {
  if (route !== undefined) {
    span.updateName(`${method} ${route}`);
    span.setAttribute(ATTR_HTTP_ROUTE, route);
  }
  if (response.writableFinished) {
    span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, response.statusCode);
    if (response.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  } else {
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'The client closed the connection before the answer' });
  }
  span.end();
}
