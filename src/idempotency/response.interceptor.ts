import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable } from 'rxjs';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { EnvelopeInterceptor } from '../envelope/envelope.interceptor';

/**
 * The one global interceptor: idempotency around the envelope, so a replay returns exactly the
 * enveloped body the first client received. Composed here rather than registered as two global
 * interceptors because each Nest interceptor layer costs an AsyncResource and an rxjs pipeline on
 * every request, the access check included.
 */
@Injectable()
export class ResponseInterceptor implements NestInterceptor {
  constructor(
    private readonly idempotency: IdempotencyInterceptor,
    private readonly envelope: EnvelopeInterceptor,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    return this.idempotency.intercept(context, { handle: () => this.envelope.intercept(context, next) });
  }
}
