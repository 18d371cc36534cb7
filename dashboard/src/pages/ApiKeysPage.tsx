import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { dashboardApi, type CreatedApiKey, type Mode } from '../api/dashboard';
import { Empty, ErrorMessage, Loading, Section } from '../components';

export const SCOPES = [
  'entitlements:read',
  'entitlements:write',
  'products:read',
  'products:write',
  'customers:read',
  'webhooks:manage',
  'events:read',
  'files:read',
  'files:write',
];

export function ApiKeysPage() {
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: ['api-keys'], queryFn: dashboardApi.listKeys });
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [copied, setCopied] = useState(false);
  const create = useMutation({
    mutationFn: dashboardApi.createKey,
    onSuccess: (key) => {
      setCreated(key);
      setCopied(false);
      void queryClient.invalidateQueries({ queryKey: ['api-keys'] });
    },
  });
  const revoke = useMutation({ mutationFn: dashboardApi.revokeKey, onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['api-keys'] }) });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const scopes = form.getAll('scope').map(String);
    create.mutate({ mode: String(form.get('mode')) as Mode, scopes: scopes.length > 0 ? scopes : [], name: String(form.get('name') || '') || undefined });
  };
  return (
    <>
      <h1>Settings → API keys</h1>
      <Section title="Create a key">
        <form onSubmit={submit} aria-label="Create an API key">
          <label>
            Name
            <input name="name" maxLength={200} />
          </label>
          <label>
            Mode
            <select name="mode" defaultValue="test">
              <option value="test">test</option>
              <option value="live">live</option>
            </select>
          </label>
          <fieldset>
            <legend>Scopes</legend>
            {SCOPES.map((scope) => (
              <label key={scope} style={{ display: 'inline-flex', marginRight: '0.75rem' }}>
                <input type="checkbox" name="scope" value={scope} /> {scope}
              </label>
            ))}
            <label style={{ display: 'inline-flex' }}>
              <input type="checkbox" name="scope" value="*" /> every scope (*)
            </label>
          </fieldset>
          <button type="submit">Create key</button>
        </form>
        <ErrorMessage error={create.error} />
        {created && (
          <div role="status">
            <p>Copy the key now: it is shown only this once.</p>
            <p className="secret" data-testid="new-key">
              {created.key}
            </p>
            <button
              type="button"
              onClick={() => void navigator.clipboard?.writeText(created.key).then(() => setCopied(true), () => setCopied(false))}
            >
              Copy key
            </button>
            {copied && <span> Copied.</span>}
          </div>
        )}
      </Section>
      <Section title="Keys">
        {keys.isPending && <Loading what="keys" />}
        <ErrorMessage error={keys.error ?? revoke.error} />
        {keys.data && keys.data.length === 0 && <Empty>No keys yet.</Empty>}
        {keys.data && keys.data.length > 0 && (
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">Mode</th>
                <th scope="col">Scopes</th>
                <th scope="col">Last used</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((key) => (
                <tr key={key.id}>
                  <td>{key.name ?? '—'}</td>
                  <td>
                    <code>{key.prefix}</code>
                  </td>
                  <td>{key.mode}</td>
                  <td>{key.scopes.join(', ')}</td>
                  <td>{key.last_used_at ?? 'never'}</td>
                  <td>
                    {key.revoked_at ? (
                      'revoked'
                    ) : (
                      <button type="button" className="secondary" onClick={() => revoke.mutate(key.id)} aria-label={`Revoke key ${key.prefix}`}>
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
    </>
  );
}
