/**
 * The OTLP/HTTP traces URL of a base endpoint, as the OpenTelemetry SDKs derive it from
 * OTEL_EXPORTER_OTLP_ENDPOINT. Apart from tracer-provider.ts so the start-up summary can name it
 * without loading the SDK.
 */
export function tracesUrl(endpoint: string): string {
  return `${endpoint.replace(/\/+$/, '')}/v1/traces`;
}
