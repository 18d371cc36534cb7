import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { catchError, from, mergeMap, Observable, of, throwError } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/auth-context';
import type { Tenant } from '../auth/tenant';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { pathOf } from '../http/request-path';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from './idempotency-openapi';
import { IDEMPOTENCY_KEY_MAX_LENGTH, IdempotencyService } from './idempotency.service';

const BODY_KEY_FIELD = 'idempotency_key';

function checkedKey(value: unknown, param: string): string {
  if (typeof value !== 'string' || value.length < 1 || value.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw new ApiError(
      ErrorCode.INVALID_PARAMETER,
      `Invalid '${param}': an idempotency key must be a string of 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`,
      param,
    );
  }
  return value;
}

/**
 * HTTP glue of idempotency for every POST under /v1 (DESIGN §4). Run by the global
 * ResponseInterceptor, after the guards (so the tenant is known and unauthenticated requests
 * never touch a key) and around the envelope interceptor, so the stored body is exactly the
 * enveloped body the first client received. Only successful responses are stored: an error
 * releases the key (nothing was created), so a corrected retry may reuse it.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger(IdempotencyInterceptor.name);

  constructor(private readonly idempotency: IdempotencyService) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const path = pathOf(request.url);
    if (request.method !== 'POST' || !path.startsWith('/v1/') || !request.auth) return next.handle();
    const key = this.keyOf(request);
    if (key === null) return next.handle();

    const tenant = request.auth.tenant;
    const response = context.switchToHttp().getResponse<FastifyReply>();
    const outcome = await this.idempotency.begin({ tenant, key, method: request.method, path, body: request.body });
    if (outcome.kind === 'replay') {
      response.status(outcome.status);
      response.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
      return of(outcome.body);
    }
    const { lockToken } = outcome;
    return next.handle().pipe(
      catchError((error: unknown) => from(this.release(tenant, key, lockToken)).pipe(mergeMap(() => throwError(() => error)))),
      mergeMap(async (body: unknown) => {
        await this.complete(tenant, key, lockToken, response.statusCode, body);
        return body;
      }),
    );
  }

  /**
   * The key from the header or the body field `idempotency_key`. Only entitlement create declares
   * that field; elsewhere the validation pipe refuses it as unknown, and an error releases the key,
   * so reading it on every POST changes nothing there and needs no per-route opt-in.
   */
  private keyOf(request: AuthenticatedRequest): string | null {
    const header = request.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
    const headerKey = header === undefined ? null : checkedKey(header, IDEMPOTENCY_KEY_HEADER);
    const body: unknown = request.body;
    const bodyValue = body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[BODY_KEY_FIELD] : undefined;
    const bodyKey = bodyValue === undefined || bodyValue === null ? null : checkedKey(bodyValue, BODY_KEY_FIELD);
    if (headerKey !== null && bodyKey !== null && headerKey !== bodyKey) {
      throw new ApiError(
        ErrorCode.INVALID_PARAMETER,
        `The body field '${BODY_KEY_FIELD}' and the ${IDEMPOTENCY_KEY_HEADER} header differ; send one key, or the same key in both`,
        BODY_KEY_FIELD,
      );
    }
    return headerKey ?? bodyKey;
  }

  private async complete(tenant: Tenant, key: string, lockToken: string, status: number, body: unknown): Promise<void> {
    try {
      const stored = await this.idempotency.complete(tenant, key, lockToken, status, body);
      if (!stored) this.logger.warn(`Idempotency key ${key}: the claim was taken over before the response was stored`);
    } catch (error) {
      // The change is committed: answer it anyway; the claim times out and can be taken over.
      this.logger.error({ err: error }, `Idempotency key ${key}: storing the response failed`);
    }
  }

  private async release(tenant: Tenant, key: string, lockToken: string): Promise<void> {
    try {
      await this.idempotency.release(tenant, key, lockToken);
    } catch (error) {
      this.logger.error({ err: error }, `Idempotency key ${key}: releasing the claim failed`);
    }
  }
}
