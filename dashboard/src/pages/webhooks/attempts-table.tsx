import { Link } from 'react-router';
import { unwrap, type Schemas } from '../../api/client';
import { describeFailure } from '../../lib/errors';
import { useApi, useModePath } from '../../lib/mode';
import { useCan } from '../../lib/permissions';
import { useWrite } from '../../lib/write';
import { Badge } from '../../ui/badge';
import { Table } from '../../ui/table';
import { Time } from '../../ui/time';

type Attempt = Schemas['WebhookDeliveryResponseDto'] & { endpoint_id?: string };

/** Delivery attempts with their answer (HTTP status, or why none came), each redeliverable. */
export function AttemptsTable({ rows, caption, endpointId }: { rows: Attempt[]; caption: string; endpointId?: string }) {
  const api = useApi();
  const can = useCan();
  const path = useModePath();
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
          ...(endpointId ? [] : [{ header: 'Endpoint', cell: (attempt: Attempt) => (attempt.endpoint_id ? <Link to={path(`webhooks/${attempt.endpoint_id}`)}>Endpoint</Link> : '—') }]),
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
