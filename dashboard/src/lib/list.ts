import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useLocation, useSearchParams } from 'react-router';
import type { Page } from '../api/client';
import { useMode } from './mode';

export const PAGE_SIZE = 25;

interface PagingState {
  /** Cursors of the pages before this one, oldest first ('' for the first page). */
  cursors?: string[];
}

/**
 * A list's filters and page, kept in the address (`?status=active&cursor=…`) so a reload, a shared
 * link and the back button show the same page. The cursors of the pages before live in the history
 * entry's state, for "Previous".
 */
export function useListState<TFilter extends string>(filterNames: readonly TFilter[]) {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const filters = Object.fromEntries(filterNames.map((name) => [name, params.get(name) ?? ''])) as Record<TFilter, string>;
  const cursor = params.get('cursor') ?? '';
  const previous = ((location.state ?? {}) as PagingState).cursors ?? [];
  const setFilters = (changes: Partial<Record<TFilter, string>>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [name, value] of Object.entries(changes) as Array<[string, string | undefined]>) {
          if (value) next.set(name, value);
          else next.delete(name);
        }
        // Another filter is another list: start at its first page.
        next.delete('cursor');
        return next;
      },
      { replace: true },
    );
  const pageLink = (target: string, cursors: string[]) => {
    const next = new URLSearchParams(params);
    if (target) next.set('cursor', target);
    else next.delete('cursor');
    return { search: `?${next.toString()}`, state: { cursors } satisfies PagingState };
  };
  const nextLink = (nextCursor: string) => pageLink(nextCursor, [...previous, cursor]);
  const previousLink = previous.length > 0 || cursor ? pageLink(previous.at(-1) ?? '', previous.slice(0, -1)) : null;
  return { filters, cursor, setFilters, nextLink, previousLink, pageIndex: previous.length };
}

/** Only the filters that are set, as query parameters. */
export function presentFilters<T extends Record<string, string>>(filters: T): Partial<T> {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== '')) as Partial<T>;
}

/**
 * One page of a server-side list, cached per mode, resource, filters and cursor; the page shown
 * stays on screen while the next one loads.
 */
export function usePage<T>(resource: string, filters: Record<string, string>, cursor: string, fetchPage: (query: { limit: number; cursor?: string }) => Promise<Page<T>>) {
  const mode = useMode();
  return useQuery({
    queryKey: [mode, resource, 'list', filters, cursor],
    queryFn: () => fetchPage({ limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) }),
    placeholderData: keepPreviousData,
  });
}
