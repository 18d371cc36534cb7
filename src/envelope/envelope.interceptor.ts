import { CallHandler, ExecutionContext, Injectable, NestInterceptor, StreamableFile } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { map, Observable } from 'rxjs';
import type { HttpRequest, HttpResponse } from '../exchange/http-exchange';
import { Envelope, envelopeOf } from './envelope';
import { RAW_RESPONSE } from './raw-response.decorator';
import { requestIdOf } from './request-id';
import { StatusResult } from './status-result';

@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const raw = this.reflector.getAllAndOverride<boolean>(RAW_RESPONSE, [context.getHandler(), context.getClass()]);
    if (raw || context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<HttpRequest>();
    return next.handle().pipe(
      map((result: unknown): Envelope<unknown> | StreamableFile => {
        // A file (a list's CSV export) is its own answer: never enveloped.
        if (result instanceof StreamableFile) return result;
        if (result instanceof StatusResult) context.switchToHttp().getResponse<HttpResponse>().status(result.status);
        return envelopeOf(result, requestIdOf(request));
      }),
    );
  }
}
