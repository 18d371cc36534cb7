import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap, type Schemas } from '../api/client';
import { Empty, ErrorMessage, Loading } from '../components';

export function EventsPage() {
  const [type, setType] = useState('');
  const events = useQuery({
    queryKey: ['events', type],
    queryFn: async () => unwrap(await api.GET('/v1/events', { params: { query: { limit: 100, ...(type ? { type: type as Schemas['EventResponseDto']['type'] } : {}) } } })),
  });
  return (
    <>
      <h1>Events</h1>
      <form
        aria-label="Filter events"
        onSubmit={(event) => {
          event.preventDefault();
          setType(String(new FormData(event.currentTarget).get('type')).trim());
        }}
      >
        <label>
          Event type
          <input name="type" placeholder="entitlement.created" defaultValue={type} />
        </label>
        <button type="submit">Filter</button>
      </form>
      {events.isPending && <Loading what="events" />}
      <ErrorMessage error={events.error} />
      {events.data?.length === 0 && <Empty>No events{type ? ` of type ${type}` : ''}.</Empty>}
      {events.data && events.data.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Type</th>
              <th scope="col">Event</th>
            </tr>
          </thead>
          <tbody>
            {events.data.map((event) => (
              <tr key={event.id}>
                <td>{event.created_at}</td>
                <td>{event.type}</td>
                <td>
                  <code>{event.id}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
