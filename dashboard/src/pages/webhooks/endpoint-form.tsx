import { useState, type FormEvent } from 'react';
import type { BodyOf, Mode, Schemas } from '../../api/client';
import type { FieldErrors } from '../../lib/errors';
import { FieldGroup, FormError, SubmitButton, TextField, textOf, useFormErrors } from '../../ui/fields';
import { EVENT_GROUPS, type EventType } from './event-types';

export type EndpointBody = BodyOf<'/v1/webhook-endpoints', 'post'>;
type Endpoint = Schemas['WebhookEndpointResponseDto'];

export const ENDPOINT_FIELDS = ['url', 'description', 'enabled_events'] as const;

/** The endpoint's body from the form, or what a person must fix first. */
export function readEndpointForm(form: FormData, choices: { everything: boolean; types: EventType[]; mode: Mode }): { body: EndpointBody; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const url = textOf(form, 'url');
  const pattern = choices.mode === 'live' ? /^https:\/\/\S+$/ : /^https?:\/\/\S+$/;
  if (!pattern.test(url)) errors.url = choices.mode === 'live' ? 'Enter a full https:// address (live mode sends to https only).' : 'Enter a full http:// or https:// address.';
  if (!choices.everything && choices.types.length === 0) errors.enabled_events = 'Choose at least one event, or every event.';
  const description = textOf(form, 'description');
  return { body: { url, enabled_events: choices.everything ? ['*'] : choices.types, description: description || null }, errors };
}

interface EndpointFormProps {
  endpoint?: Endpoint;
  mode: Mode;
  pending: boolean;
  error: unknown;
  submitLabel: string;
  onSubmit: (body: EndpointBody) => void;
  onCancel?: () => void;
}

export function EndpointForm({ endpoint, mode, pending, error, submitLabel, onSubmit, onCancel }: EndpointFormProps) {
  const initial = endpoint?.enabled_events ?? ['*'];
  const [everything, setEverything] = useState(initial.includes('*'));
  const [types, setTypes] = useState<EventType[]>(initial.filter((type): type is EventType => type !== '*'));
  const errors = useFormErrors(ENDPOINT_FIELDS, error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { body, errors: found } = readEndpointForm(new FormData(event.currentTarget), { everything, types, mode });
    if (errors.accept(found)) onSubmit(body);
  };
  const toggle = (type: EventType, on: boolean) => setTypes((current) => (on ? [...current, type] : current.filter((chosen) => chosen !== type)));
  return (
    <form className="stack form" onSubmit={submit} aria-label={endpoint ? 'Edit the endpoint' : 'New webhook endpoint'} noValidate>
      <TextField label="Endpoint URL" name="url" type="url" defaultValue={endpoint?.url} placeholder="https://example.com/webhooks" maxLength={2048} required error={errors.fields.url} hint="Events are POSTed here, signed (Standard Webhooks)." />
      <TextField label="Description" name="description" defaultValue={endpoint?.description ?? ''} maxLength={500} optional error={errors.fields.description} />
      <FieldGroup legend="Events to send" error={errors.fields.enabled_events} className="events">
        <label className="choice">
          <input type="checkbox" checked={everything} onChange={(event) => setEverything(event.target.checked)} /> Every event, including types added later
        </label>
        {!everything &&
          EVENT_GROUPS.map((group) => (
            <fieldset key={group.label} className="event-group">
              <legend>{group.label}</legend>
              {group.types.map((type) => (
                <label key={type} className="choice">
                  <input type="checkbox" checked={types.includes(type)} onChange={(event) => toggle(type, event.target.checked)} /> <code>{type}</code>
                </label>
              ))}
            </fieldset>
          ))}
      </FieldGroup>
      <FormError message={errors.form} />
      <div className="actions">
        <SubmitButton pending={pending}>{submitLabel}</SubmitButton>
        {onCancel && (
          <button type="button" className="secondary" onClick={onCancel} disabled={pending}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
