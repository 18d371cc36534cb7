import { PageResult } from '../envelope/page-result';
import { CursorPosition, decodeCursor, encodeCursor } from './cursor';
import { DEFAULT_PAGE_SIZE, PaginationQueryDto } from './pagination-query.dto';

/** What a repository needs to fetch one keyset page: limit + 1 rows after the position. */
export interface PageRequest {
  limit: number;
  after: CursorPosition | null;
}

export function toPageRequest(query: PaginationQueryDto): PageRequest {
  return {
    limit: query.limit ?? DEFAULT_PAGE_SIZE,
    after: query.cursor ? decodeCursor(query.cursor) : null,
  };
}

/**
 * Builds the page from the limit + 1 rows a repository returned; the extra row only says there is more.
 * `total` is left out where the reference omits it (customer downloads).
 */
export function toPageResult<Row extends { id: string }, Item>(
  rows: Row[],
  request: PageRequest,
  sortValue: (row: Row) => Date,
  toItem: (row: Row) => Item,
  total?: number,
): PageResult<Item> {
  const hasMore = rows.length > request.limit;
  const pageRows = hasMore ? rows.slice(0, request.limit) : rows;
  const last = pageRows[pageRows.length - 1];
  return new PageResult(pageRows.map(toItem), {
    ...(total !== undefined ? { total } : {}),
    limit: request.limit,
    has_more: hasMore,
    next_cursor: hasMore && last ? encodeCursor({ at: sortValue(last).toISOString(), id: last.id }) : null,
  });
}
