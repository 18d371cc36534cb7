import { context, Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { tracesUrl } from './traces-url';

export const DEFAULT_SERVICE_NAME = 'entitlement-api';

/** A tracer and its provider's lifecycle. */
export interface TracerBackend {
  tracer: Tracer;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
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


/**
 * The OpenTelemetry SDK, loaded (tracing.ts imports this file) only when tracing is on: the
 * server and the CLI start without it otherwise. The application's own provider, not the global
 * one, so several applications in one process (tests) each export their own spans.
 */
export function createTracerBackend(endpoint: string): TracerBackend {
  installContextManager();
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: process.env.OTEL_SERVICE_NAME || DEFAULT_SERVICE_NAME }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: tracesUrl(endpoint) }))],
  });
  return { tracer: provider.getTracer(DEFAULT_SERVICE_NAME), flush: () => provider.forceFlush(), shutdown: () => provider.shutdown() };
}
