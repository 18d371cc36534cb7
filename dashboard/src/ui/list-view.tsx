import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { ListPage } from '../lib/list';
import { Pager } from './pager';
import { ErrorMessage, Loading } from './states';

interface ListViewProps<T> {
  page: UseQueryResult<ListPage<T>>;
  list: { nextLink: (cursor: string) => { search: string; state: unknown }; previousLink: { search: string; state: unknown } | null };
  /** What the list holds, plural: "products". */
  noun: string;
  /** Shown when the page has no rows. */
  empty: ReactNode;
  children: (rows: T[]) => ReactNode;
}

/** A server-side list's page in its states: loading, failed, empty, or its rows with the pager. */
export function ListView<T>({ page, list, noun, empty, children }: ListViewProps<T>) {
  return (
    <>
      {page.isPending && <Loading what={noun} />}
      <ErrorMessage error={page.error} />
      {page.data && page.data.data.length === 0 && empty}
      {page.data && page.data.data.length > 0 && (
        <>
          {children(page.data.data)}
          <Pager page={page.data} loading={page.isPlaceholderData} noun={noun} list={list} />
        </>
      )}
    </>
  );
}

/** Filters set from elsewhere (a product, a customer), each removable. */
export function FilterChips({ chips }: { chips: Array<{ label: string; what: string; onRemove: () => void } | null> }) {
  const shown = chips.filter((chip): chip is NonNullable<typeof chip> => chip !== null);
  if (shown.length === 0) return null;
  return (
    <ul className="chips" aria-label="Other filters">
      {shown.map((chip) => (
        <li key={chip.what}>
          {chip.label}
          <button type="button" className="chip-remove" aria-label={`Remove the ${chip.what} filter`} onClick={chip.onRemove}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
