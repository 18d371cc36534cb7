import autocannon from 'autocannon';
import { createLocalJWKSet, JSONWebKeySet, jwtVerify } from 'jose';

/**
 * Signed entitlement tokens (issue 15 target 2): how many tokens the service issues per second
 * over HTTP, and how many a customer's app verifies per second offline with jose in this (the
 * client) process, against the JWKS the service publishes. `bench/run.ts` calls it with a running
 * server, an API key holding entitlements:read and an active entitlement of that key's tenant.
 */
export interface TokenBenchmarkOptions {
  baseUrl: string;
  apiKey: string;
  entitlementId: string;
  /** Seconds of each measurement (default 10). */
  durationSeconds?: number;
  /** Connections issuing tokens (default 10). */
  connections?: number;
}

export interface TokenBenchmarkResult {
  issuance: { requestsPerSecond: number; p50Milliseconds: number; p99Milliseconds: number; non2xx: number; errors: number };
  /** Offline jwtVerify calls per second, one core, no network. */
  verificationsPerSecond: number;
  verified: number;
}

async function issueOne(options: TokenBenchmarkOptions): Promise<string> {
  const response = await fetch(`${options.baseUrl}/v1/entitlements/${options.entitlementId}/token`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${options.apiKey}` },
  });
  if (response.status !== 200) throw new Error(`token issuance answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { data: { token: string } }).data.token;
}

export async function measureTokens(options: TokenBenchmarkOptions): Promise<TokenBenchmarkResult> {
  const durationSeconds = options.durationSeconds ?? 10;
  const token = await issueOne(options);

  const issuance = await autocannon({
    url: `${options.baseUrl}/v1/entitlements/${options.entitlementId}/token`,
    method: 'POST',
    headers: { authorization: `Bearer ${options.apiKey}` },
    connections: options.connections ?? 10,
    duration: durationSeconds,
  });

  // As a customer's app does: fetch the key set once, then verify locally.
  const jwksResponse = await fetch(`${options.baseUrl}/.well-known/jwks.json`);
  const keySet = createLocalJWKSet((await jwksResponse.json()) as JSONWebKeySet);
  let verified = 0;
  const started = performance.now();
  const deadline = started + durationSeconds * 1000;
  while (performance.now() < deadline) {
    // Batches keep the clock reads off the measured path.
    for (let index = 0; index < 100; index += 1) {
      await jwtVerify(token, keySet, { algorithms: ['EdDSA'] });
      verified += 1;
    }
  }
  const elapsedSeconds = (performance.now() - started) / 1000;

  return {
    issuance: {
      requestsPerSecond: issuance.requests.average,
      p50Milliseconds: issuance.latency.p50,
      p99Milliseconds: issuance.latency.p99,
      non2xx: issuance.non2xx,
      errors: issuance.errors,
    },
    verificationsPerSecond: verified / elapsedSeconds,
    verified,
  };
}
