import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { unwrap, unwrapPage, type Schemas } from '../../api/client';
import { describeFailure } from '../../lib/errors';
import { useApi, useMode, useModePath } from '../../lib/mode';
import { useCan } from '../../lib/permissions';
import { useWrite } from '../../lib/write';
import { Badge } from '../../ui/badge';
import { Table } from '../../ui/table';
import { Time } from '../../ui/time';

type Attempt = Schemas['WebhookDeliveryResponseDto'] & { endpoint_id?: string };

/** Each endpoint's URL by id (a merchant has a few endpoints: one page holds them), so a delivery names where it went. */
function useEndpointUrls(enabled: boolean) {
  const api = useApi();
  const mode = useMode();
  return useQuery({
    queryKey: [mode, 'webhook-endpoints', 'urls'],
    enabled,
    staleTime: 60_000,
    queryFn: async () => new Map(unwrapPage(await api.GET('/v1/webhook-endpoints', { params: { query: { limit: 100 } } })).data.map((endpoint) => [endpoint.id, endpoint.url])),
  });
}

/** Delivery attempts with their answer (HTTP status, or why none came), each redeliverable. */
export function AttemptsTable({ rows, caption, endpointId }: { rows: Attempt[]; caption: string; endpointId?: string }) {
  const api = useApi();
  const can = useCan();
  const path = useModePath();
  const endpointUrls = useEndpointUrls(!endpointId);
  const redeliver = useWrite({
    mutationFn: async (attempt: Attempt) => unwrap(await api.POST('/v1/events/{event_id}/redeliver', { params: { path: { event_id: attempt.event_id } }, body: { endpoint_id: attempt.endpoint_id ?? endpointId } })),
    invalidates: [['webhook-endpoints'], ['events']],
  });
  return (
    <>
      {redeliver.error ? (
        <p role="alert" className="error">
          {describeFailure(redeliver.error)}
        </p>
      ) : null}
      {redeliver.isSuccess && (
        <p role="status" className="notice">
          Redelivery queued: it appears here once sent.
        </p>
      )}
      <Table<Attempt>
        caption={caption}
        rows={rows}
        rowKey={(attempt) => attempt.id}
        columns={[
          { header: 'Sent', rowHeader: true, cell: (attempt) => <Time value={attempt.attempted_at} /> },
          {
            header: 'Event',
            cell: (attempt) =>
              attempt.event_type === 'webhook_endpoint.test' ? <code>{attempt.event_type}</code> : <Link to={path(`events/${attempt.event_id}`)}>{attempt.event_type}</Link>,
          },
          ...(endpointId
            ? []
            : [
                {
                  header: 'Endpoint',
                  cell: (attempt: Attempt) =>
                    attempt.endpoint_id ? <Link to={path(`webhooks/${attempt.endpoint_id}`)}>{endpointUrls.data?.get(attempt.endpoint_id) ?? attempt.endpoint_id}</Link> : '—',
                },
              ]),
          { header: 'Attempt', cell: (attempt) => attempt.attempt },
          {
            header: 'Response',
            cell: (attempt) => (
              <>
                <Badge status={attempt.succeeded ? 'succeeded' : 'failed'} label={attempt.status_code === null ? 'No answer' : `HTTP ${attempt.status_code}`} />
                {attempt.error && <small className="muted block">{attempt.error}</small>}
              </>
            ),
          },
          { header: 'Time taken', cell: (attempt) => `${attempt.duration_ms} ms` },
          { header: 'Next retry', cell: (attempt) => <Time value={attempt.next_attempt_at} empty="None" /> },
          {
            header: 'Redeliver',
            cell: (attempt) =>
              attempt.event_type === 'webhook_endpoint.test' || !can('events:redeliver') ? (
                <span className="muted">—</span>
              ) : (
                <button type="button" className="secondary small" disabled={redeliver.isPending} onClick={() => redeliver.run(attempt)} aria-label={`Redeliver ${attempt.event_type} of ${attempt.attempted_at}`}>
                  Redeliver
                </button>
              ),
          },
        ]}
      />
    </>
  );
}
