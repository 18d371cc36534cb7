import { Link } from 'react-router';
import { unwrapPage, type Schemas } from '../../api/client';
import { PAGE_SIZE, useListState, usePage } from '../../lib/list';
import { useApi, useModePath } from '../../lib/mode';
import { Badge } from '../../ui/badge';
import { PageHeader } from '../../ui/page';
import { Pager } from '../../ui/pager';
import { Empty, ErrorMessage, Loading } from '../../ui/states';
import { Table } from '../../ui/table';
import { Time } from '../../ui/time';

type Endpoint = Schemas['WebhookEndpointResponseDto'];

export function WebhooksPage() {
  const api = useApi();
  const path = useModePath();
  const list = useListState([] as const);
  const page = usePage('webhook-endpoints', list.filters, list.cursor, async (paging) => unwrapPage(await api.GET('/v1/webhook-endpoints', { params: { query: paging } })));
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Your servers hear about every change as it happens: each event is POSTed, signed, to the endpoints that want it, and retried until they answer 2xx."
        actions={
          <Link className="button primary" to={path('webhooks/new')}>
            Add endpoint
          </Link>
        }
      />
      {page.isPending && <Loading what="endpoints" />}
      <ErrorMessage error={page.error} />
      {page.data && page.data.data.length === 0 && (
        <Empty title="No endpoints yet.">
          <Link className="button primary" to={path('webhooks/new')}>
            Add your first endpoint
          </Link>
        </Empty>
      )}
      {page.data && page.data.data.length > 0 && (
        <>
          <Table<Endpoint>
            caption="Webhook endpoints"
            rows={page.data.data}
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
          <Pager
            noun="endpoints"
            shown={page.data.data.length}
            pageIndex={list.pageIndex}
            pageSize={PAGE_SIZE}
            total={page.data.total}
            nextLink={page.data.has_more && page.data.next_cursor ? list.nextLink(page.data.next_cursor) : null}
            previousLink={list.previousLink}
          />
        </>
      )}
    </>
  );
}
