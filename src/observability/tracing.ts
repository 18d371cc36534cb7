import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Attributes, context, Context, ROOT_CONTEXT, Span, SpanKind, SpanStatusCode, trace, Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { AppConfig } from '../config/app-config';

const DEFAULT_SERVICE_NAME = 'entitlement-api';

/** A span's ids as the request log line carries them. */
export interface TraceIds {
  trace_id: string;
  span_id: string;
}

/**
 * Child spans need the current span across awaits: AsyncLocalStorage, installed once per process
 * and only when tracing is on (its hooks cost every promise, so an instance without traces keeps
 * none: src/http/request-log.ts).
 */
let contextManagerInstalled = false;
function installContextManager(): void {
  if (contextManagerInstalled) return;
  contextManagerInstalled = context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
}

/** The OTLP/HTTP traces URL of a base endpoint, as the OpenTelemetry SDKs derive it from OTEL_EXPORTER_OTLP_ENDPOINT. */
export function tracesUrl(endpoint: string): string {
  return `${endpoint.replace(/\/+$/, '')}/v1/traces`;
}

/**
 * OpenTelemetry traces (DESIGN §16), off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: spans in
 * batches over OTLP/HTTP. The application's own tracer provider (not the global one), so several
 * applications in one process (tests) each export their own spans. The standard OTEL_* variables
 * the exporter reads (headers, timeout) apply; OTEL_SERVICE_NAME names the service.
 */
@Injectable()
export class Tracing implements OnApplicationShutdown {
  private readonly provider: NodeTracerProvider | null = null;
  private readonly tracer: Tracer | null = null;

  constructor(config: AppConfig) {
    const endpoint = config.tracesEndpoint;
    if (endpoint === null) return;
    installContextManager();
    this.provider = new NodeTracerProvider({
      resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: process.env.OTEL_SERVICE_NAME || DEFAULT_SERVICE_NAME }),
      spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: tracesUrl(endpoint) }))],
    });
    this.tracer = this.provider.getTracer(DEFAULT_SERVICE_NAME);
  }

  get enabled(): boolean {
    return this.tracer !== null;
  }

  /** A request's span, a root: the service takes no trace context from its callers (they are the public). */
  startRequestSpan(name: string, attributes: Attributes): Span | null {
    return this.tracer?.startSpan(name, { kind: SpanKind.SERVER, attributes }, ROOT_CONTEXT) ?? null;
  }

  /** A child of the current span (a statement of a request), or null when there is none. */
  startChildSpan(name: string, attributes: Attributes): Span | null {
    if (!this.tracer) return null;
    const active = context.active();
    if (!trace.getSpan(active)) return null;
    return this.tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, active);
  }

  /** `callback` bound to the current context, to run there whoever calls it (pool callbacks). */
  bind<Callback extends (...args: never[]) => unknown>(callback: Callback): Callback {
    return this.tracer ? context.bind(context.active(), callback) : callback;
  }

  /** Runs `work` inside `span` (what starts meanwhile is its child). */
  within<Result>(span: Span, work: () => Result): Result {
    return context.with(trace.setSpan(ROOT_CONTEXT as Context, span), work);
  }

  /** `work` as a span of its own (a webhook send), the current span's child if any; ended when it settles. */
  async span<Result>(name: string, attributes: Attributes, work: (span: Span | null) => Promise<Result>): Promise<Result> {
    if (!this.tracer) return work(null);
    const span = this.tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, context.active());
    try {
      return await context.with(trace.setSpan(context.active(), span), () => work(span));
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  }

  /** Sends the spans ended so far (tests; shutdown does it too). */
  async flush(): Promise<void> {
    await this.provider?.forceFlush();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.provider?.shutdown();
  }
}

/** Marks a span failed with the error's message (never its parameters). */
export function failed(span: Span, error: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

export function traceIdsOf(span: Span): TraceIds {
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
