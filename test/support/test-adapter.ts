import type { HttpAdapterName } from '../../src/http/http-platform';

/**
 * The HTTP adapter every test app and child process runs on: TEST_HTTP_ADAPTER (express by
 * default, like the service), so the whole suite runs on either (`.ci/run` runs it on both).
 */
export function testHttpAdapter(): HttpAdapterName {
  const name = process.env.TEST_HTTP_ADAPTER ?? 'express';
  if (name !== 'express' && name !== 'fastify') throw new Error(`TEST_HTTP_ADAPTER must be express or fastify, not ${name}`);
  return name;
}
