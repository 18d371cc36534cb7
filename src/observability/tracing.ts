import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Attributes, context, Context, ROOT_CONTEXT, Span, SpanKind, SpanStatusCode, trace, Tracer } from '@opentelemetry/api';
import { AppConfig } from '../config/app-config';
import type { TracerBackend } from './tracer-provider';

/** A span's ids as the request log line carries them. */
export interface TraceIds {
  trace_id: string;
  span_id: string;
}

/**
 * OpenTelemetry traces (DESIGN §16), off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: spans in
 * batches over OTLP/HTTP. The application's own tracer provider (not the global one), so several
 * applications in one process (tests) each export their own spans. The standard OTEL_* variables
 * the exporter reads (headers, timeout) apply; OTEL_SERVICE_NAME names the service.
 */
@Injectable()
export class Tracing implements OnApplicationShutdown {
  private readonly tracer: Tracer | null;

  constructor(private readonly backend: TracerBackend | null) {
    this.tracer = backend?.tracer ?? null;
  }

  /** The application's tracing: the SDK is loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set. */
  static async create(config: AppConfig): Promise<Tracing> {
    const endpoint = config.tracesEndpoint;
    if (endpoint === null) return new Tracing(null);
    const { createTracerBackend } = await import('./tracer-provider');
    return new Tracing(createTracerBackend(endpoint));
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
    await this.backend?.flush();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.backend?.shutdown();
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
