import { useState, type FormEvent } from 'react';
import type { Mode } from '../../api/client';
import type { CreateApiKey } from '../../api/dashboard';
import type { FieldErrors } from '../../lib/errors';
import { useSession } from '../../shell/session';
import { FieldGroup, FormActions, TextField, textOf, useFormErrors } from '../../ui/fields';

/** A scope a key may list: the document's enum (`*` is "Every scope"). */
type Scope = CreateApiKey['scopes'][number];

export const SCOPES: ReadonlyArray<{ scope: Scope; label: string }> = [
  { scope: 'entitlements:read', label: 'Check access, read entitlements' },
  { scope: 'entitlements:write', label: 'Grant, revoke, suspend; orders, subscriptions, imports' },
  { scope: 'entitlements:grant', label: 'Grant, suspend, reactivate and revoke only' },
  { scope: 'products:read', label: 'Read products' },
  { scope: 'products:write', label: 'Create and change products and grant rules' },
  { scope: 'customers:read', label: 'Read customers and their downloads' },
  { scope: 'files:read', label: 'Read files, issue download URLs' },
  { scope: 'files:write', label: 'Upload and delete files' },
  { scope: 'events:read', label: 'Read events' },
  { scope: 'events:redeliver', label: 'Redeliver events' },
  { scope: 'webhooks:read', label: 'Read webhook endpoints and deliveries' },
  { scope: 'webhooks:manage', label: 'Manage webhook endpoints' },
  { scope: 'audit:read', label: 'Read the audit log' },
  { scope: 'usage:read', label: 'Read usage, charges and statements' },
];

export const KEY_FIELDS = ['name', 'mode', 'scopes'] as const;

export function readKeyForm(form: FormData, choices: { everything: boolean; scopes: Scope[] }): { body: CreateApiKey; errors: FieldErrors } {
  const errors: FieldErrors = {};
  if (!choices.everything && choices.scopes.length === 0) errors.scopes = 'Choose at least one scope, or every scope.';
  const mode = textOf(form, 'mode') === 'live' ? 'live' : 'test';
  const name = textOf(form, 'name');
  return { body: { mode, scopes: choices.everything ? ['*'] : choices.scopes, ...(name ? { name } : {}) }, errors };
}

/** Creates an API key: a name, its mode and the scopes it may use. */
export function ApiKeyForm({ mode, pending, error, onSubmit }: { mode: Mode; pending: boolean; error: unknown; onSubmit: (body: CreateApiKey) => void }) {
  // A key gets no more than its creator holds (the server refuses it anyway).
  const session = useSession();
  const held: readonly string[] = session.scopes;
  const grantable = SCOPES.filter(({ scope }) => held.includes(scope));
  const mayGrantEverything = grantable.length === SCOPES.length;
  const [everything, setEverything] = useState(false);
  const [scopes, setScopes] = useState<Scope[]>([]);
  const errors = useFormErrors(KEY_FIELDS, error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { body, errors: found } = readKeyForm(new FormData(event.currentTarget), { everything, scopes });
    if (errors.accept(found)) onSubmit(body);
  };
  return (
    <form className="stack form" onSubmit={submit} aria-label="Create an API key" noValidate>
      <TextField label="Name" name="name" maxLength={200} optional error={errors.fields.name} hint="Say where it is used, e.g. “checkout backend”." />
      <FieldGroup legend="Mode" error={errors.fields.mode} className="choices">
        <label className="choice">
          <input type="radio" name="mode" value="test" defaultChecked={mode === 'test' || session.test_only} /> Test: sees and changes test data only
        </label>
        {!session.test_only && (
          <label className="choice">
            <input type="radio" name="mode" value="live" defaultChecked={mode === 'live'} /> Live: real customers
          </label>
        )}
      </FieldGroup>
      <FieldGroup legend="Scopes" error={errors.fields.scopes} className="choices scopes">
        {mayGrantEverything && (
          <label className="choice">
            <input type="checkbox" checked={everything} onChange={(event) => setEverything(event.target.checked)} /> Every scope (*)
          </label>
        )}
        {!everything &&
          grantable.map(({ scope, label }) => (
            <label key={scope} className="choice">
              <input type="checkbox" value={scope} checked={scopes.includes(scope)} onChange={(event) => setScopes((current) => (event.target.checked ? [...current, scope] : current.filter((chosen) => chosen !== scope)))} />{' '}
              <span>
                <code>{scope}</code> <small>{label}</small>
              </span>
            </label>
          ))}
      </FieldGroup>
      <FormActions error={errors.form} pending={pending} submitLabel="Create key" pendingLabel="Creating…" />
    </form>
  );
}
