/** A page as every list operation answers it: `data` and `pagination.next_cursor` (null on the last page). */
interface Page<Item> {
  data: Item[];
  pagination: { next_cursor: string | null };
}

/** Most items one request may ask for (the service's `limit` maximum). */
const MAX_PAGE_SIZE = 100;

/**
 * A list call that is both a promise of its first page and an async iterable of every item across
 * pages. Lazy: the first request goes out when it is awaited or iterated, so `toArray` can ask for
 * bigger pages, and a list nobody reads sends nothing. `fetchPage(cursor, pageSize)` sends one
 * request with the caller's query plus the cursor (and the page size when it chose none).
 */
export class LazyPagePromise<PageBody extends Page<Item>, Item> implements Promise<PageBody>, AsyncIterable<Item> {
  readonly [Symbol.toStringTag] = 'Promise';
  private firstPage: Promise<PageBody> | null = null;

  constructor(private readonly fetchPage: (cursor: string | null, pageSize: number | null) => Promise<PageBody>) {}

  private first(): Promise<PageBody> {
    this.firstPage ??= this.fetchPage(null, null);
    return this.firstPage;
  }

  then<Fulfilled = PageBody, Rejected = never>(
    onFulfilled?: ((value: PageBody) => Fulfilled | PromiseLike<Fulfilled>) | null,
    onRejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null,
  ): Promise<Fulfilled | Rejected> {
    return this.first().then(onFulfilled, onRejected);
  }

  catch<Rejected = never>(onRejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null): Promise<PageBody | Rejected> {
    return this.first().catch(onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<PageBody> {
    return this.first().finally(onFinally);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Item> {
    yield* this.items(null);
  }

  /** Every item across pages, up to `limit`; pages as big as needed (at most 100 a request) unless the query set `limit`. */
  async toArray(options: { limit: number }): Promise<Item[]> {
    const limit = options?.limit;
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('toArray needs { limit }: a positive whole number of items');
    const items: Item[] = [];
    for await (const item of this.items(Math.min(limit, MAX_PAGE_SIZE))) {
      items.push(item);
      if (items.length >= limit) break;
    }
    return items;
  }

  private async *items(pageSize: number | null): AsyncGenerator<Item> {
    let page = pageSize === null ? await this.first() : await this.fetchPage(null, pageSize);
    for (;;) {
      yield* page.data;
      const cursor = page.pagination.next_cursor;
      if (!cursor) return;
      page = await this.fetchPage(cursor, pageSize);
    }
  }
}
