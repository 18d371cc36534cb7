import { Controller, ExecutionContext, Get } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AuthContext, AuthenticatedRequest } from '../../src/auth/auth-context';
import { Public, RequireScopes } from '../../src/auth/route-access.decorators';
import { ScopeGuard } from '../../src/auth/scope.guard';
import { ApiError } from '../../src/errors/api-error';
import { ErrorCode } from '../../src/errors/error-code.enum';

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
}

function auth(scopes: string[]): AuthContext {
  return {
    credential: 'api-key',
    credentialId: 'key_1',
    merchantId: 'mer_1',
    mode: 'test',
    scopes: new Set(scopes),
    tenant: { merchantId: 'mer_1', mode: 'test' },
  };
}

function contextFor(controller: new () => object, handler: (...args: never[]) => unknown, request: Partial<AuthenticatedRequest>): ExecutionContext {
  return {
    getHandler: () => handler,
    getClass: () => controller,
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
}

function refusal(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected the guard to refuse');
}

describe('ScopeGuard', () => {
  const guard = new ScopeGuard(new Reflector());

  it('denies a route that declares nothing, even to a key with every scope (deny by default)', () => {
    const error = refusal(() =>
      guard.canActivate(contextFor(UndeclaredController, UndeclaredController.prototype.handler, { auth: auth(['*']) })),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe(ErrorCode.INSUFFICIENT_SCOPE);
  });

  it('names the missing scope', () => {
    const error = refusal(() =>
      guard.canActivate(contextFor(DeclaredController, DeclaredController.prototype.products, { auth: auth(['entitlements:read']) })),
    );
    expect(error.code).toBe(ErrorCode.INSUFFICIENT_SCOPE);
    expect(error.message).toContain("'products:read'");
  });

  it('lets through a key with the scope or with *', () => {
    for (const scopes of [['products:read'], ['*']]) {
      expect(guard.canActivate(contextFor(DeclaredController, DeclaredController.prototype.products, { auth: auth(scopes) }))).toBe(true);
    }
  });

  it('lets public routes through without a key', () => {
    expect(guard.canActivate(contextFor(DeclaredController, DeclaredController.prototype.health, {}))).toBe(true);
  });
});
