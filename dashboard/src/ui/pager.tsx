import { Link } from 'react-router';
import { formatCount } from '../lib/format';

interface PagerProps {
  /** Items on this page. */
  shown: number;
  pageIndex: number;
  pageSize: number;
  total?: number;
  noun: string;
  nextLink: { search: string; state: unknown } | null;
  previousLink: { search: string; state: unknown } | null;
}

/** "26–50 of 150 products", with links to the pages around (by cursor, server-side). */
export function Pager({ shown, pageIndex, pageSize, total, noun, nextLink, previousLink }: PagerProps) {
  const first = pageIndex * pageSize + 1;
  const last = pageIndex * pageSize + shown;
  return (
    <nav className="pager" aria-label={`Pages of ${noun}`}>
      <p aria-live="polite">
        {shown === 0 ? `No ${noun}` : `${formatCount(first)}–${formatCount(last)}`}
        {total !== undefined && shown > 0 ? ` of ${formatCount(total)} ${noun}` : shown > 0 ? ` ${noun}` : ''}
      </p>
      <div className="actions">
        {previousLink ? (
          <Link className="button secondary" to={{ search: previousLink.search }} state={previousLink.state} rel="prev">
            ← Previous
          </Link>
        ) : null}
        {nextLink ? (
          <Link className="button secondary" to={{ search: nextLink.search }} state={nextLink.state} rel="next">
            Next →
          </Link>
        ) : null}
      </div>
    </nav>
  );
}
