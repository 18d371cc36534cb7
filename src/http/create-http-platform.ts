import type { HttpTimeouts } from '../config/app-config';
import type { HttpAdapterName, HttpPlatform } from './http-platform';

/** The platform for HTTP_ADAPTER; only the chosen framework is loaded. */
export async function createHttpPlatform(name: HttpAdapterName, timeouts: HttpTimeouts): Promise<HttpPlatform> {
  if (name === 'fastify') return new (await import('./fastify-platform')).FastifyPlatform(timeouts);
  return new (await import('./express-platform')).ExpressPlatform(timeouts);
}
