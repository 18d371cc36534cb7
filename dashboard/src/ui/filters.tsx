import { useEffect, useId, useState, type ReactNode } from 'react';

/** A list's search and filters, above it; they apply as they change (the server filters). */
export function FilterBar({ label, children }: { label: string; children: ReactNode }) {
  return (
    <form role="search" aria-label={label} className="filters" onSubmit={(event) => event.preventDefault()}>
      {children}
    </form>
  );
}

/** A search box that asks the server once typing pauses (300 ms) or on Enter. */
export function SearchInput({ label, value, onChange, placeholder }: { label: string; value: string; onChange: (value: string) => void; placeholder?: string }) {
  const id = useId();
  const [text, setText] = useState(value);
  // The address can change under it (back button, a cleared filter).
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text.trim() === value) return;
    const timer = window.setTimeout(() => onChange(text.trim()), 300);
    return () => window.clearTimeout(timer);
  }, [text, value, onChange]);
  return (
    <div className="field search">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="search"
        value={text}
        placeholder={placeholder}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') onChange(text.trim());
        }}
      />
    </div>
  );
}

export function FilterSelect({ label, value, onChange, options }: { label: string; value: string; onChange: (value: string) => void; options: ReadonlyArray<{ value: string; label: string }> }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A date filter (a day, in the browser's zone); the list gets it as an ISO time. */
export function DateFilter({ label, value, onChange, endOfDay = false }: { label: string; value: string; onChange: (value: string) => void; endOfDay?: boolean }) {
  const id = useId();
  const day = value ? toDay(value) : '';
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="date"
        value={day}
        onChange={(event) => {
          const picked = event.target.value;
          if (!picked) return onChange('');
          const date = new Date(`${picked}T${endOfDay ? '23:59:59.999' : '00:00:00.000'}`);
          onChange(date.toISOString());
        }}
      />
    </div>
  );
}

function toDay(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
