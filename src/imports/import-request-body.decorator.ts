import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { HttpRequest } from '../exchange/http-exchange';

/**
 * The import's body as the request gate read it: a CsvBody for text/csv, the parsed object for
 * JSON. Outside the validation pipe on purpose: importRowBatches checks the shape and each row
 * is checked when processed (one bad row fails alone).
 */
export const ImportRequestBody = createParamDecorator((_data: unknown, context: ExecutionContext): unknown => {
  return context.switchToHttp().getRequest<HttpRequest>().body;
});
