import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, unwrap, type Schemas } from '../api/client';
import { Empty, ErrorMessage, Loading, Section } from '../components';

export function WebhooksPage() {
  const queryClient = useQueryClient();
  const [secret, setSecret] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const endpoints = useQuery({ queryKey: ['webhook-endpoints'], queryFn: async () => unwrap(await api.GET('/v1/webhook-endpoints', { params: { query: { limit: 100 } } })) });
  const deliveries = useQuery({
    queryKey: ['deliveries', selected],
    enabled: selected !== null,
    queryFn: async () => unwrap(await api.GET('/v1/webhook-endpoints/{endpoint_id}/deliveries', { params: { path: { endpoint_id: selected ?? '' }, query: { limit: 100 } } })),
  });
  const create = useMutation({
    mutationFn: async (body: Schemas['CreateWebhookEndpointDto']) => unwrap(await api.POST('/v1/webhook-endpoints', { body })),
    onSuccess: (endpoint) => {
      setSecret(endpoint.secret);
      void queryClient.invalidateQueries({ queryKey: ['webhook-endpoints'] });
    },
  });
  const redeliver = useMutation({
    mutationFn: async ({ eventId, endpointId }: { eventId: string; endpointId: string }) =>
      unwrap(await api.POST('/v1/events/{event_id}/redeliver', { params: { path: { event_id: eventId } }, body: { endpoint_id: endpointId } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['deliveries'] }),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    create.mutate({ url: String(form.get('url')), enabled_events: ['*'] });
  };
  return (
    <>
      <h1>Webhooks</h1>
      <Section title="Add an endpoint">
        <form onSubmit={submit} aria-label="Add a webhook endpoint">
          <label>
            Endpoint URL
            <input name="url" type="url" required placeholder="https://example.com/webhooks" />
          </label>
          <button type="submit">Add endpoint (every event)</button>
        </form>
        <ErrorMessage error={create.error} />
        {secret && (
          <div role="status">
            <p>Signing secret, shown only this once:</p>
            <p className="secret">{secret}</p>
          </div>
        )}
      </Section>
      <Section title="Endpoints">
        {endpoints.isPending && <Loading what="endpoints" />}
        <ErrorMessage error={endpoints.error} />
        {endpoints.data?.length === 0 && <Empty>No endpoints yet.</Empty>}
        {endpoints.data && endpoints.data.length > 0 && (
          <table>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">State</th>
                <th scope="col">Deliveries</th>
              </tr>
            </thead>
            <tbody>
              {endpoints.data.map((endpoint) => (
                <tr key={endpoint.id}>
                  <td>{endpoint.url}</td>
                  <td>{endpoint.enabled_events.join(', ')}</td>
                  <td>{endpoint.disabled ? 'disabled' : 'enabled'}</td>
                  <td>
                    <button type="button" className="secondary" onClick={() => setSelected(endpoint.id)} aria-label={`Show deliveries of ${endpoint.url}`}>
                      Show
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
      {selected && (
        <Section title="Deliveries">
          {deliveries.isPending && <Loading what="deliveries" />}
          <ErrorMessage error={deliveries.error ?? redeliver.error} />
          {deliveries.data?.length === 0 && <Empty>No deliveries to this endpoint yet.</Empty>}
          {deliveries.data && deliveries.data.length > 0 && (
            <table>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Event</th>
                  <th scope="col">Attempt</th>
                  <th scope="col">Result</th>
                  <th scope="col">Redeliver</th>
                </tr>
              </thead>
              <tbody>
                {deliveries.data.map((delivery) => (
                  <tr key={delivery.id}>
                    <td>{delivery.attempted_at}</td>
                    <td>{delivery.event_type}</td>
                    <td>{delivery.attempt}</td>
                    <td>{delivery.succeeded ? `ok (${delivery.status_code})` : `failed ${delivery.status_code ?? ''} ${delivery.error ?? ''}`}</td>
                    <td>
                      <button type="button" className="secondary" onClick={() => redeliver.mutate({ eventId: delivery.event_id, endpointId: selected })}>
                        Redeliver
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Section>
      )}
    </>
  );
}
