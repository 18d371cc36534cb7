import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { unwrap, unwrapPage } from '../../api/client';
import { useApi, useMode, useModePath } from '../../lib/mode';
import { useCan } from '../../lib/permissions';
import { useWrite } from '../../lib/write';
import { Id } from '../../ui/copy';
import { JsonView } from '../../ui/json';
import { RecordLink } from '../../ui/names';
import { Facts, PageHeader, Section } from '../../ui/page';
import { Empty, ErrorMessage, Loading } from '../../ui/states';
import { Time } from '../../ui/time';
import { describeFailure } from '../../lib/errors';
import { AttemptsTable } from '../webhooks/attempts-table';
import { objectIdOf } from './events-page';

/** One event: its payload as sent, copyable, and every delivery attempt of it. */
export function EventPage() {
  const { eventId = '' } = useParams();
  const api = useApi();
  const can = useCan();
  const mode = useMode();
  const path = useModePath();
  const event = useQuery({
    queryKey: [mode, 'events', 'one', eventId],
    queryFn: async () => unwrap(await api.GET('/v1/events/{event_id}', { params: { path: { event_id: eventId } } })),
  });
  const deliveries = useQuery({
    queryKey: [mode, 'events', 'deliveries', eventId],
    queryFn: async () => unwrapPage(await api.GET('/v1/events/{event_id}/deliveries', { params: { path: { event_id: eventId }, query: { limit: 100 } } })),
  });
  const redeliverAll = useWrite({
    mutationFn: async () => unwrap(await api.POST('/v1/events/{event_id}/redeliver', { params: { path: { event_id: eventId } }, body: {} })),
    invalidates: [['events'], ['webhook-endpoints']],
  });
  if (event.isPending) return <Loading what="the event" />;
  if (event.error || !event.data) return <ErrorMessage error={event.error} />;
  const data = event.data;
  const objectId = objectIdOf(data);
  return (
    <>
      <PageHeader
        back={{ to: path('events'), label: 'Events' }}
        title={<code>{data.type}</code>}
        actions={
          can('events:redeliver') && (
            <button type="button" className="secondary" disabled={redeliverAll.isPending} onClick={() => redeliverAll.run(undefined)}>
              Send again to every endpoint
            </button>
          )
        }
      />
      {redeliverAll.data && (
        <p role="status" className="notice">
          Queued for {redeliverAll.data.endpoint_ids.length === 1 ? 'one endpoint' : `${redeliverAll.data.endpoint_ids.length} endpoints`}.
        </p>
      )}
      {redeliverAll.error ? (
        <p role="alert" className="error">
          {describeFailure(redeliverAll.error)}
        </p>
      ) : null}
      <Section title="Details">
        <Facts
          items={[
            ['Event id', <Id key="id" value={data.id} />],
            ['When', <Time key="when" value={data.created_at} />],
            ['About', objectId ? <RecordLink key="about" id={objectId} /> : '—'],
            ['Mode', data.livemode ? 'Live' : 'Test'],
          ]}
        />
        <JsonView label="Payload" value={data} linkIds />
      </Section>
      <Section title="Deliveries">
        {deliveries.isPending && <Loading what="deliveries" />}
        <ErrorMessage error={deliveries.error} />
        {deliveries.data?.data.length === 0 && <Empty title="Not sent to any endpoint.">No endpoint was subscribed to {data.type} when it happened.</Empty>}
        {deliveries.data && deliveries.data.data.length > 0 && <AttemptsTable rows={deliveries.data.data} caption={`Deliveries of ${data.id}`} />}
      </Section>
    </>
  );
}
