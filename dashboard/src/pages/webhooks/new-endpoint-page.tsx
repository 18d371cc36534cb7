import { Link, useNavigate } from 'react-router';
import { idempotent, unwrap } from '../../api/client';
import { useApi, useMode, useModePath } from '../../lib/mode';
import { useWrite } from '../../lib/write';
import { Secret } from '../../ui/copy';
import { PageHeader, Section } from '../../ui/page';
import { EndpointForm, type EndpointBody } from './endpoint-form';

export function NewEndpointPage() {
  const api = useApi();
  const mode = useMode();
  const path = useModePath();
  const navigate = useNavigate();
  const create = useWrite({
    mutationFn: async (body: EndpointBody, key: string) => unwrap(await api.POST('/v1/webhook-endpoints', { body, ...idempotent(key) })),
    invalidates: [['webhook-endpoints']],
  });
  return (
    <>
      <PageHeader title="New webhook endpoint" back={{ to: path('webhooks'), label: 'Webhooks' }} />
      {create.data ? (
        <Section title="Endpoint added">
          <p>
            Events now go to <strong>{create.data.url}</strong>. Its signing secret is shown only this once: put it in your server’s configuration to verify each delivery.
          </p>
          <Secret value={create.data.secret} what="the signing secret" testId="new-secret" />
          <p>
            <Link className="button primary" to={path(`webhooks/${create.data.id}`)}>
              Done: open the endpoint
            </Link>
          </p>
        </Section>
      ) : (
        <EndpointForm mode={mode} submitLabel="Add endpoint" pending={create.isPending} error={create.error} onSubmit={create.run} onCancel={() => navigate(path('webhooks'))} />
      )}
    </>
  );
}
