import { Link } from 'react-router';
import { unwrapPage, type Schemas } from '../../api/client';
import { useListState, usePage } from '../../lib/list';
import { useApi, useModePath } from '../../lib/mode';
import { useCan } from '../../lib/permissions';
import { Badge } from '../../ui/badge';
import { PageHeader } from '../../ui/page';
import { ListView } from '../../ui/list-view';
import { Empty } from '../../ui/states';
import { Table } from '../../ui/table';
import { Time } from '../../ui/time';

type Endpoint = Schemas['WebhookEndpointResponseDto'];

export function WebhooksPage() {
  const can = useCan();
  const api = useApi();
  const path = useModePath();
  const list = useListState([] as const);
  const page = usePage('webhook-endpoints', list, async (paging) => unwrapPage(await api.GET('/v1/webhook-endpoints', { params: { query: paging } })));
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Your servers hear about every change as it happens: each event is POSTed, signed, to the endpoints that want it, and retried until they answer 2xx."
        actions={
          <>
            <Link className="button secondary" to={path('webhooks/deliveries')}>
              All deliveries
            </Link>
            {can('webhooks:manage') && (
              <Link className="button primary" to={path('webhooks/new')}>
                Add endpoint
              </Link>
            )}
          </>
        }
      />
      <ListView
        page={page}
        list={list}
        noun="endpoints"
        empty={
          <Empty title="No endpoints yet.">
            {can('webhooks:manage') && (
              <Link className="button primary" to={path('webhooks/new')}>
                Add your first endpoint
              </Link>
            )}
          </Empty>
        }
      >
        {(rows) => (
          <Table<Endpoint>
            caption="Webhook endpoints"
            rows={rows}
            rowKey={(endpoint) => endpoint.id}
            columns={[
              {
                header: 'URL',
                rowHeader: true,
                cell: (endpoint) => (
                  <>
                    <Link to={path(`webhooks/${endpoint.id}`)} className="break">
                      {endpoint.url}
                    </Link>
                    {endpoint.description && <small className="muted block">{endpoint.description}</small>}
                  </>
                ),
              },
              { header: 'Events', cell: (endpoint) => (endpoint.enabled_events.includes('*') ? 'Every event' : `${endpoint.enabled_events.length} types`) },
              { header: 'State', cell: (endpoint) => <Badge status={endpoint.disabled ? 'disabled' : 'enabled'} label={endpoint.disabled ? (endpoint.disabled_reason === 'endpoint_gone' ? 'Disabled (answered 410)' : 'Disabled') : 'Enabled'} /> },
              { header: 'Added', cell: (endpoint) => <Time value={endpoint.created_at} /> },
            ]}
          />
        )}
      </ListView>
    </>
  );
}
