import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { unwrap, type Schemas } from '../api/client';
import { describeFailure } from '../lib/errors';
import { useApi, useModePath } from '../lib/mode';
import { useCan } from '../lib/permissions';
import { recordPath } from '../lib/record-path';

type SearchResult = Schemas['SearchResultDto'];

const OBJECT_NAMES: Record<SearchResult['object'], string> = {
  customer: 'Customer',
  entitlement: 'Entitlement',
  product: 'Product',
  order: 'Order',
  subscription: 'Subscription',
  file: 'File',
  event: 'Event',
};

/**
 * The header's search (DESIGN §11, issue 34): paste an id or the start of a store id, press Enter.
 * One record found (or the exact id) opens it at once; several are listed to choose from.
 */
export function SearchBox() {
  const api = useApi();
  const path = useModePath();
  const navigate = useNavigate();
  const can = useCan();
  const [term, setTerm] = useState('');
  const [results, setResults] = useState<SearchResult[] | null>(null);
  const [searched, setSearched] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!can('customers:read')) return null;

  const close = () => {
    setResults(null);
    setFailure(null);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const q = term.trim();
    if (!q) return;
    setBusy(true);
    setFailure(null);
    try {
      const found = unwrap(await api.GET('/v1/search', { params: { query: { q } } }));
      const exact = found.find((result) => result.id === q);
      const only = exact ?? (found.length === 1 ? found[0] : undefined);
      if (only) {
        close();
        setTerm('');
        void navigate(path(recordPath(only.id) ?? ''));
        return;
      }
      setSearched(q);
      setResults(found);
    } catch (error) {
      setFailure(describeFailure(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="search-box">
      <form role="search" onSubmit={(event) => void submit(event)}>
        <label htmlFor="global-search" className="visually-hidden">
          Search by id or store id
        </label>
        <input
          id="global-search"
          type="search"
          placeholder="Search id or store id"
          value={term}
          autoComplete="off"
          onChange={(event) => setTerm(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') close();
          }}
        />
        <button type="submit" className="secondary small" disabled={busy}>
          Search
        </button>
      </form>
      {failure && (
        <p className="search-results" role="alert">
          {failure}
        </p>
      )}
      {results && (
        <div className="search-results" role="region" aria-label="Search results">
          {results.length === 0 ? (
            <p role="status">Nothing found for “{searched}”.</p>
          ) : (
            <ul>
              {results.map((result) => (
                <li key={`${result.object}:${result.id}`}>
                  <Link to={path(recordPath(result.id) ?? '')} onClick={close}>
                    <span className="muted">{OBJECT_NAMES[result.object]}</span> {result.label}
                  </Link>{' '}
                  <code className="muted">{result.id}</code>
                </li>
              ))}
            </ul>
          )}
          <button type="button" className="secondary small" onClick={close}>
            Close
          </button>
        </div>
      )}
    </div>
  );
}
