import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** A page's title, what it is for, and its main actions. */
export function PageHeader({ title, description, actions, back }: { title: ReactNode; description?: ReactNode; actions?: ReactNode; back?: { to: string; label: string } }) {
  return (
    <header className="page-header">
      {back && (
        <Link className="back" to={back.to}>
          ← {back.label}
        </Link>
      )}
      <div className="page-title">
        <h1>{title}</h1>
        {actions && <div className="actions">{actions}</div>}
      </div>
      {description && <p className="page-description">{description}</p>}
    </header>
  );
}

export function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="card" aria-label={title}>
      <div className="card-title">
        <h2>{title}</h2>
        {actions && <div className="actions">{actions}</div>}
      </div>
      {children}
    </section>
  );
}

/** A record's fields as a list of name and value. */
export function Facts({ items }: { items: Array<[string, ReactNode]> }) {
  return (
    <dl className="facts">
      {items.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
