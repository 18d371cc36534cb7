import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { map, Observable } from 'rxjs';
import { PageResult, Pagination } from './page-result';
import { RAW_RESPONSE } from './raw-response.decorator';
import { requestIdOf } from './request-id';

export interface Envelope<T> {
  data: T;
  meta: { request_id: string; timestamp: string };
  pagination?: Pagination;
}

@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const raw = this.reflector.getAllAndOverride<boolean>(RAW_RESPONSE, [context.getHandler(), context.getClass()]);
    if (raw || context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return next.handle().pipe(
      map((result: unknown): Envelope<unknown> => {
        const meta = { request_id: requestIdOf(request), timestamp: new Date().toISOString() };
        if (result instanceof PageResult) {
          return { data: result.items, meta, pagination: result.pagination };
        }
        return { data: result, meta };
      }),
    );
  }
}
