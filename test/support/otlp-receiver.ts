import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** An OTLP attribute value as the JSON encoding writes it. */
interface AttributeValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  doubleValue?: number;
}

/** One span as received, its attributes flattened. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean | undefined>;
  status: { code?: number; message?: string };
}

interface ExportRequest {
  resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: Array<Omit<ReceivedSpan, 'attributes'> & { attributes?: Array<{ key: string; value: AttributeValue }> }> }> }>;
}

function valueOf(value: AttributeValue): string | number | boolean | undefined {
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.stringValue ?? value.boolValue ?? value.doubleValue;
}

/** A loopback OTLP/HTTP collector (JSON encoding, as @opentelemetry/exporter-trace-otlp-http sends) that keeps every span. */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<OtlpReceiver> {
    let receiver: OtlpReceiver | null = null;
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const raw = Buffer.concat(chunks);
        const body = request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
        if (request.url === '/v1/traces' && String(request.headers['content-type']).startsWith('application/json')) {
          receiver?.accept(JSON.parse(body.toString('utf8')) as ExportRequest);
          response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
        } else {
          response.writeHead(415).end();
        }
      });
    });
    receiver = new OtlpReceiver(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  /** The base endpoint (OTEL_EXPORTER_OTLP_ENDPOINT). */
  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private accept(request: ExportRequest): void {
    for (const resource of request.resourceSpans ?? []) {
      for (const scope of resource.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          const attributes = Object.fromEntries((span.attributes ?? []).map(({ key, value }) => [key, valueOf(value)]));
          this.spans.push({ traceId: span.traceId, spanId: span.spanId, parentSpanId: span.parentSpanId || undefined, name: span.name, kind: span.kind, attributes, status: span.status ?? {} });
        }
      }
    }
  }
}
