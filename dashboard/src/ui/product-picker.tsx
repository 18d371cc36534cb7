import { useQuery } from '@tanstack/react-query';
import { useId, useState, type KeyboardEvent } from 'react';
import { unwrapPage, type Schemas } from '../api/client';
import { humanize } from '../lib/format';
import { useApi, useMode } from '../lib/mode';

export type ProductChoice = Pick<Schemas['ProductListItemDto'], 'id' | 'name' | 'entitlement_type' | 'store_product_id'>;

interface PickerProps {
  label: string;
  value: ProductChoice | null;
  onChange: (product: ProductChoice | null) => void;
  error?: string;
  hint?: string;
  /** Products not to offer (the product being edited, those chosen already). */
  exclude?: readonly string[];
  /** The form field carrying the chosen id, for forms read with FormData. */
  name?: string;
}

const SHOWN = 8;

/**
 * A product chosen by searching (name, id or store id; the server searches every product, not the
 * first page of them): an ARIA 1.2 combobox with a list of matching active products.
 */
export function ProductPicker({ label, value, onChange, error, hint, exclude = [], name }: PickerProps) {
  const api = useApi();
  const mode = useMode();
  const id = useId();
  const [text, setText] = useState(value?.name ?? '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const search = text.trim() === (value?.name ?? '') ? '' : text.trim();
  const results = useQuery({
    queryKey: [mode, 'products', 'search', search],
    enabled: open,
    queryFn: async () =>
      unwrapPage(await api.GET('/v1/products', { params: { query: { limit: SHOWN + exclude.length, status: 'active', ...(search ? { search } : {}) } } })),
    staleTime: 10_000,
  });
  const options = (results.data?.data ?? []).filter((product) => !exclude.includes(product.id)).slice(0, SHOWN);
  const choose = (product: ProductChoice) => {
    onChange(product);
    setText(product.name);
    setOpen(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActive((index) => Math.min(index + 1, Math.max(options.length - 1, 0)));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((index) => Math.max(index - 1, 0));
    } else if (event.key === 'Enter' && open && options[active]) {
      event.preventDefault();
      choose(options[active]);
    } else if (event.key === 'Escape') {
      setOpen(false);
    }
  };
  const listId = `${id}-list`;
  const describedBy = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={error ? 'field picker has-error' : 'field picker'}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && options[active] ? `${id}-option-${options[active].id}` : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        placeholder="Search by name, id or store id"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setActive(0);
          setOpen(true);
          if (value) onChange(null);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => window.setTimeout(() => setOpen(false), 150)}
        onKeyDown={onKeyDown}
      />
      {name && <input type="hidden" name={name} value={value?.id ?? ''} />}
      {open && (
        <ul id={listId} role="listbox" aria-label={`${label}: matching products`} className="picker-options">
          {results.isPending && <li className="muted">Searching…</li>}
          {!results.isPending && options.length === 0 && <li className="muted">No active product matches “{text}”.</li>}
          {options.map((product, index) => (
            <li
              key={product.id}
              id={`${id}-option-${product.id}`}
              role="option"
              aria-selected={index === active}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(product)}
            >
              <span>{product.name}</span>
              <small>
                {humanize(product.entitlement_type)}
                {product.store_product_id ? ` · ${product.store_product_id}` : ''}
              </small>
            </li>
          ))}
        </ul>
      )}
      {hint && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** Several products chosen one by one (a bundle's contents), each removable. */
export function ProductListPicker({ label, value, onChange, error, hint, exclude = [] }: { label: string; value: ProductChoice[]; onChange: (products: ProductChoice[]) => void; error?: string; hint?: string; exclude?: readonly string[] }) {
  const [picking, setPicking] = useState(0);
  return (
    <div className="product-list-picker">
      {value.length > 0 && (
        <ul className="chips" aria-label={`${label}: chosen`}>
          {value.map((product) => (
            <li key={product.id}>
              {product.name}
              <button type="button" className="chip-remove" aria-label={`Remove ${product.name}`} onClick={() => onChange(value.filter((chosen) => chosen.id !== product.id))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <ProductPicker
        key={picking}
        label={label}
        value={null}
        error={error}
        hint={hint}
        exclude={[...exclude, ...value.map((product) => product.id)]}
        onChange={(product) => {
          if (!product) return;
          onChange([...value, product]);
          setPicking((count) => count + 1);
        }}
      />
    </div>
  );
}
