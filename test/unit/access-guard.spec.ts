import { Controller, ExecutionContext, Get } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AuthContext, AuthenticatedRequest } from '../../src/auth/auth-context';
import { AccessGuard } from '../../src/auth/access.guard';
import { AdminRoute, Public, RequireScopes } from '../../src/auth/route-access.decorators';
import type { AppConfig } from '../../src/config/app-config';
import { ApiError } from '../../src/errors/api-error';
import { ErrorCode } from '../../src/errors/error-code.enum';
import { FixedWindowMemoryStorage } from '../../src/rate-limiting/fixed-window-memory.storage';
import { RateLimiter } from '../../src/rate-limiting/rate-limiter';
import { Metrics } from '../../src/observability/metrics';

@Controller('undeclared')
class UndeclaredController {
  @Get()
  handler(): string {
    return 'should never run';
  }
}

@Controller('declared')
class DeclaredController {
  @Get('products')
  @RequireScopes('products:read')
  products(): string {
    return 'ok';
  }

  @Get('health')
  @Public()
  health(): string {
    return 'ok';
  }

  @Get('admin')
  @AdminRoute()
  admin(): string {
    return 'ok';
  }
}

function auth(scopes: string[]): AuthContext {
  return {
    credential: 'api-key',
    credentialId: 'key_1',
    actor: { type: 'api_key', id: 'key_1', label: 'sk_test_abc' },
    merchantId: 'mer_1',
    mode: 'test',
    scopes: new Set(scopes),
    tenant: { merchantId: 'mer_1', mode: 'test' },
  };
}

interface RecordedResponse {
  headers: Record<string, string>;
  header(name: string, value: string): void;
}

function recordedResponse(): RecordedResponse {
  return {
    headers: {},
    header(name, value) {
      this.headers[name] = value;
    },
  };
}

function contextFor(
  controller: new () => object,
  handler: (...args: never[]) => unknown,
  request: Partial<AuthenticatedRequest>,
  response: RecordedResponse = recordedResponse(),
): ExecutionContext {
  return {
    getHandler: () => handler,
    getClass: () => controller,
    switchToHttp: () => ({ getRequest: () => ({ method: 'GET', ...request }), getResponse: () => response }),
  } as unknown as ExecutionContext;
}

async function refusal(run: () => unknown): Promise<ApiError> {
  try {
    await run();
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected the guard to refuse');
}

function guardWithReadLimit(readPerMinute: number): AccessGuard {
  const config = { rateLimits: { readPerMinute, writePerMinute: readPerMinute, authFailuresPerMinute: 10 } } as AppConfig;
  return new AccessGuard(new Reflector(), new RateLimiter(new FixedWindowMemoryStorage(), config, new Metrics(config)));
}

describe('AccessGuard', () => {
  const guard = guardWithReadLimit(1000);

  it('refuses a key route without a key as INVALID_API_KEY, before looking at scopes', async () => {
    const error = await refusal(() => guard.canActivate(contextFor(UndeclaredController, UndeclaredController.prototype.handler, {})));
    expect(error.code).toBe(ErrorCode.INVALID_API_KEY);
  });

  it('denies a route that declares nothing, even to a key with every scope (deny by default)', async () => {
    const error = await refusal(() =>
      guard.canActivate(contextFor(UndeclaredController, UndeclaredController.prototype.handler, { auth: auth(['*']) })),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe(ErrorCode.INSUFFICIENT_SCOPE);
  });

  it('names the missing scope', async () => {
    const error = await refusal(() =>
      guard.canActivate(contextFor(DeclaredController, DeclaredController.prototype.products, { auth: auth(['entitlements:read']) })),
    );
    expect(error.code).toBe(ErrorCode.INSUFFICIENT_SCOPE);
    expect(error.message).toContain("'products:read'");
  });

  it('lets through a key with the scope or with *', async () => {
    for (const scopes of [['products:read'], ['*']]) {
      expect(await guard.canActivate(contextFor(DeclaredController, DeclaredController.prototype.products, { auth: auth(scopes) }))).toBe(true);
    }
  });

  it('lets public and admin routes through without a key (the admin guard decides those)', async () => {
    expect(await guard.canActivate(contextFor(DeclaredController, DeclaredController.prototype.health, {}))).toBe(true);
    expect(await guard.canActivate(contextFor(DeclaredController, DeclaredController.prototype.admin, {}))).toBe(true);
  });

  it('reads the decorators of a route once and answers the same from then on', async () => {
    const context = contextFor(DeclaredController, DeclaredController.prototype.products, { auth: auth(['products:read']) });
    const first = guard.accessOf(context);
    expect(first).toEqual({ kind: 'api-key', scopes: ['products:read'] });
    expect(guard.accessOf(context)).toBe(first);
  });

  it('counts an authenticated request against the budget of its key, with headers, and refuses past it', async () => {
    const limited = guardWithReadLimit(2);
    const key = auth(['products:read']);
    const responses = [recordedResponse(), recordedResponse(), recordedResponse()];
    await limited.canActivate(contextFor(DeclaredController, DeclaredController.prototype.products, { auth: key }, responses[0]));
    await limited.canActivate(contextFor(DeclaredController, DeclaredController.prototype.products, { auth: key }, responses[1]));
    expect(responses[0].headers['X-RateLimit-Limit']).toBe('2');
    expect(responses[0].headers['X-RateLimit-Remaining']).toBe('1');
    expect(responses[1].headers['X-RateLimit-Remaining']).toBe('0');
    const error = await refusal(() => limited.canActivate(contextFor(DeclaredController, DeclaredController.prototype.products, { auth: key }, responses[2])));
    expect(error.code).toBe(ErrorCode.RATE_LIMITED);
    expect(error.headers['Retry-After']).toMatch(/^\d+$/);
  });

  it('does not count a request the scope check refused', async () => {
    const limited = guardWithReadLimit(1);
    const response = recordedResponse();
    await refusal(() => limited.canActivate(contextFor(DeclaredController, DeclaredController.prototype.products, { auth: auth(['entitlements:read']) }, response)));
    expect(response.headers['X-RateLimit-Remaining']).toBeUndefined();
    expect(await limited.canActivate(contextFor(DeclaredController, DeclaredController.prototype.products, { auth: auth(['products:read']) }))).toBe(true);
  });
});
