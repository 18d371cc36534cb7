import type { ReactNode } from 'react';

/** The three states every page shows besides its data (DESIGN §11: loading, empty, error). */
export function Loading({ what }: { what: string }) {
  return (
    <p role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p role="alert" className="error">
      {error instanceof Error ? error.message : String(error)}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** Bytes in the reference's units (MB = 2^20 bytes). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${UNITS[unit]}`;
}
