export interface Pagination {
  total?: number;
  limit: number;
  has_more: boolean;
  next_cursor: string | null;
}

/** Returned by list handlers; the envelope interceptor splits it into `data` and `pagination`. */
export class PageResult<T> {
  constructor(
    readonly items: T[],
    readonly pagination: Pagination,
  ) {}
}
