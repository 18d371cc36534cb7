import { CallHandler, ExecutionContext, HttpStatus, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { catchError, from, mergeMap, Observable, of, throwError } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/auth-context';
import { requestIdOf } from '../envelope/request-id';
import { ApiError, SHOULD_RETRY_HEADER } from '../errors/api-error';
import { ErrorCode } from '../errors/error-code.enum';
import { HttpResponse, requestPathOf } from '../exchange/http-exchange';
import { attachIdempotencyClaim } from './current-operation.decorator';
import { IdempotencyKeyTakenError, RequestIdempotencyClaim } from './idempotency-claim';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from '../swagger/idempotency-openapi';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../validation/input-bounds';
import { refuseUnstorableText } from '../validation/input-rules';
import { IdempotencyService, IdempotentRequest, Replay } from './idempotency.service';

const BODY_KEY_FIELD = 'idempotency_key';

function checkedKey(value: unknown, param: string): string {
  if (typeof value !== 'string' || value.length < 1 || value.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw new ApiError(
      ErrorCode.INVALID_PARAMETER,
      `Invalid '${param}': an idempotency key must be a string of 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`,
      param,
    );
  }
  // Read before the validation pipe runs: text the database can't store is refused here (a 400, not a 500).
  refuseUnstorableText({ [param]: value });
  return value;
}

/**
 * HTTP glue of idempotency for every POST under /v1 (DESIGN §4, §13). Run by the global
 * ResponseInterceptor, after the guards (so the tenant is known and unauthenticated requests
 * never touch a key) and around the envelope interceptor. A committed response under the key is
 * replayed; otherwise the handler runs with a claim (see @CurrentOperation) that its transaction
 * records the key and the complete response with, and the client gets exactly what was stored.
 * Only successful responses are stored: a failed request rolled back, key included.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger(IdempotencyInterceptor.name);

  constructor(private readonly idempotency: IdempotencyService) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const path = requestPathOf(request);
    if (request.method !== 'POST' || !path.startsWith('/v1/') || !request.auth) return next.handle();
    const key = this.keyOf(request);
    if (key === null) return next.handle();

    const idempotent: IdempotentRequest = { tenant: request.auth.tenant, key, method: request.method, path, body: request.body };
    const response = context.switchToHttp().getResponse<HttpResponse>();
    const replay = await this.idempotency.lookup(idempotent);
    if (replay) return of(this.replay(response, replay));

    const status = (Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) as number | undefined) ?? HttpStatus.CREATED;
    const claim = this.idempotency.claim(idempotent, requestIdOf(request), status);
    attachIdempotencyClaim(request, claim);
    return next.handle().pipe(
      mergeMap((body: unknown) => from(this.firstResponse(claim, body))),
      catchError((error: unknown) =>
        // Another request with the key committed first: this one rolled back; answer with that one's response.
        error instanceof IdempotencyKeyTakenError ? from(this.replayTaken(response, idempotent)) : throwError(() => error),
      ),
    );
  }

  /**
   * The key from the header or the body field `idempotency_key`. Only entitlement create declares
   * that field; elsewhere the validation pipe refuses it as unknown (and a failed request stores
   * nothing), so reading it on every POST changes nothing there and needs no per-route opt-in.
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

  /** What the first request's client gets: the response its transaction stored. */
  private async firstResponse(claim: RequestIdempotencyClaim, body: unknown): Promise<unknown> {
    if (claim.response) return claim.response.body;
    if (claim.acquired) throw new Error('An idempotent transaction committed without storing its response');
    // The handler opened no transaction: it wrote nothing, so its response is recorded on its own.
    try {
      if (!(await this.idempotency.recordWithoutTransaction(claim, body))) {
        this.logger.warn(`Idempotency key ${claim.request.key}: taken by a concurrent request; this response was not stored`);
      }
    } catch (error) {
      this.logger.error({ err: error }, `Idempotency key ${claim.request.key}: storing the response failed`);
    }
    return body;
  }

  private async replayTaken(response: HttpResponse, idempotent: IdempotentRequest): Promise<unknown> {
    const replay = await this.idempotency.lookup(idempotent);
    if (!replay) {
      throw new ApiError(ErrorCode.IDEMPOTENCY_KEY_CONFLICT, `A request with idempotency key '${idempotent.key}' just finished; retry to get its result`, undefined, {
        [SHOULD_RETRY_HEADER]: 'true',
        'Retry-After': '1',
      });
    }
    return this.replay(response, replay);
  }

  private replay(response: HttpResponse, replay: Replay): unknown {
    response.status(replay.status);
    response.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
    return replay.body;
  }
}
