import { useQuery } from '@tanstack/react-query';
import { dashboardApi, type ApiKey, type CreateApiKey } from '../../api/dashboard';
import { useMode } from '../../lib/mode';
import { useCan } from '../../lib/permissions';
import { useWrite } from '../../lib/write';
import { Badge } from '../../ui/badge';
import { ConfirmButton } from '../../ui/confirm';
import { Secret } from '../../ui/copy';
import { PageHeader, Section } from '../../ui/page';
import { Empty, ErrorMessage, Loading } from '../../ui/states';
import { Table } from '../../ui/table';
import { Time } from '../../ui/time';
import { ApiKeyForm } from './api-key-form';

/** API keys of the merchant (both modes): create one with scopes and a mode, copy it once, revoke. */
export function ApiKeysPage() {
  const mode = useMode();
  const can = useCan();
  const manages = can('api_keys:manage');
  // Keys belong to the merchant, not to a mode: cached outside the modes' keys.
  const keys = useQuery({ queryKey: ['api-keys'], queryFn: dashboardApi.listKeys });
  const create = useWrite({
    mutationFn: (body: CreateApiKey, key: string) => dashboardApi.createKey(body, key),
    onSuccess: () => void keys.refetch(),
  });
  const revoke = useWrite({
    mutationFn: (id: string) => dashboardApi.revokeKey(id),
    onSuccess: () => void keys.refetch(),
  });
  return (
    <>
      <PageHeader title="API keys" description="Your backend calls the API with a key. Each key has a mode (test or live) and the scopes it may use." />
      {manages && <Section title="Create a key">
        {create.data ? (
          <div role="status">
            <p>
              Copy <strong>{create.data.name ?? 'the new key'}</strong> now: it is shown only this once. Send it as <code>Authorization: Bearer …</code>.
            </p>
            <Secret value={create.data.key} what="the API key" testId="new-key" />
            <button type="button" className="secondary" onClick={create.reset}>
              Create another key
            </button>
          </div>
        ) : (
          <ApiKeyForm mode={mode} pending={create.isPending} error={create.error} onSubmit={create.run} />
        )}
      </Section>}
      <Section title="Keys">
        {keys.isPending && <Loading what="keys" />}
        <ErrorMessage error={keys.error ?? revoke.error} />
        {keys.data?.length === 0 && <Empty title="No keys yet." />}
        {keys.data && keys.data.length > 0 && (
          <Table<ApiKey>
            caption="API keys"
            rows={keys.data}
            rowKey={(key) => key.id}
            columns={[
              {
                header: 'Name',
                rowHeader: true,
                cell: (key) => (
                  <>
                    {key.name ?? <span className="muted">Unnamed</span>}
                    <code className="block">{key.prefix}…</code>
                  </>
                ),
              },
              { header: 'Mode', cell: (key) => <Badge status={key.mode === 'live' ? 'active' : 'pending'} label={key.mode === 'live' ? 'Live' : 'Test'} /> },
              { header: 'Scopes', cell: (key) => (key.scopes.includes('*') ? 'Every scope' : key.scopes.join(', ')) },
              { header: 'Last used', cell: (key) => <Time value={key.last_used_at} empty="Never" /> },
              { header: 'Created', cell: (key) => <Time value={key.created_at} /> },
              {
                header: 'Status',
                cell: (key) =>
                  key.revoked_at ? (
                    <Badge status="revoked" label="Revoked" />
                  ) : !manages ? (
                    <Badge status="active" label="Active" />
                  ) : (
                    <ConfirmButton
                      label="Revoke"
                      ariaLabel={`Revoke key ${key.prefix}`}
                      title={`Revoke ${key.name ?? key.prefix}?`}
                      confirmLabel="Revoke key"
                      onConfirm={() => revoke.runAsync(key.id)}
                    >
                      <p>Requests with this key fail from now on. This can’t be undone.</p>
                    </ConfirmButton>
                  ),
              },
            ]}
          />
        )}
      </Section>
    </>
  );
}
