import { Link } from 'react-router';
import type { ListPage } from '../lib/list';
import { PAGE_SIZE } from '../lib/list';
import { formatCount } from '../lib/format';

interface PagerProps {
  page: ListPage<unknown>;
  /** True while the next page loads (the one shown is the previous): no link leads anywhere yet. */
  loading: boolean;
  noun: string;
  list: { nextLink: (cursor: string) => { search: string; state: unknown }; previousLink: { search: string; state: unknown } | null };
}

/** "26–50 of 150 products", with links to the pages around (by cursor, server-side). */
export function Pager({ page, loading, noun, list }: PagerProps) {
  const shown = page.data.length;
  const first = page.pageIndex * PAGE_SIZE + 1;
  const last = page.pageIndex * PAGE_SIZE + shown;
  const next = !loading && page.has_more && page.next_cursor ? list.nextLink(page.next_cursor) : null;
  const previous = loading ? null : list.previousLink;
  return (
    <nav className="pager" aria-label={`Pages of ${noun}`} aria-busy={loading || undefined}>
      <p aria-live="polite">
        {shown === 0 ? `No ${noun}` : `${formatCount(first)}–${formatCount(last)}`}
        {page.total !== undefined && shown > 0 ? ` of ${formatCount(page.total)} ${page.total === 1 ? noun.replace(/s$/, '') : noun}` : shown > 0 ? ` ${noun}` : ''}
        {loading ? ' (loading the next page…)' : ''}
      </p>
      <div className="actions">
        {previous ? (
          <Link className="button secondary" to={{ search: previous.search }} state={previous.state} rel="prev">
            ← Previous
          </Link>
        ) : null}
        {next ? (
          <Link className="button secondary" to={{ search: next.search }} state={next.state} rel="next">
            Next →
          </Link>
        ) : null}
      </div>
    </nav>
  );
}
