import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { MetaDto, PaginationDto, PaginationWithoutTotalDto } from './envelope.dto';
import { MAX_PAGE_SIZE } from '../pagination/pagination-query.dto';

interface EnvelopeOptions {
  status?: number;
  description: string;
  /** `total` = a list with pagination.total; `no-total` = a list without it (customer downloads). */
  list?: 'total' | 'no-total';
  /** A plain array in `data`, without pagination. */
  array?: boolean;
  /** The most items a plain array holds, when the service bounds it (a search's results). */
  maxItems?: number;
  /** The list also answers `Accept: text/csv` with every page as CSV: these are its columns (src/envelope/csv.ts). */
  csvColumns?: readonly string[];
}

/** Documents a success response wrapped in the envelope: `data` (the DTO), `meta`, and `pagination` on lists. */
export function ApiEnvelopeResponse(model: Type<unknown>, options: EnvelopeOptions): MethodDecorator {
  // A page holds at most MAX_PAGE_SIZE items; a plain array (an admin list) is unpaged.
  const items = { items: { $ref: getSchemaPath(model) } };
  const data = options.list ? { type: 'array', ...items, maxItems: MAX_PAGE_SIZE } : options.array ? { type: 'array', ...items, ...(options.maxItems !== undefined ? { maxItems: options.maxItems } : {}) } : { $ref: getSchemaPath(model) };
  const paginationModel = options.list === 'no-total' ? PaginationWithoutTotalDto : PaginationDto;
  const schema = {
    type: 'object',
    required: options.list ? ['data', 'meta', 'pagination'] : ['data', 'meta'],
    properties: {
      data,
      meta: { $ref: getSchemaPath(MetaDto) },
      ...(options.list ? { pagination: { $ref: getSchemaPath(paginationModel) } } : {}),
    },
  };
  return applyDecorators(
    ApiExtraModels(model, MetaDto, ...(options.list ? [paginationModel] : [])),
    ApiResponse({
      status: options.status ?? 200,
      description: options.csvColumns
        ? `${options.description}; with \`Accept: text/csv\`, every page of the list (the same filters) as one streamed CSV file with a header row`
        : options.description,
      ...(options.csvColumns
        ? {
            content: {
              'application/json': { schema },
              'text/csv': { schema: { type: 'string', example: `${options.csvColumns.join(',')}\r\n` } },
            },
          }
        : { schema }),
    }),
  );
}
