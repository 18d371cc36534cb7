import { useState, type FormEvent } from 'react';
import type { BodyOf, Schemas } from '../../api/client';
import type { FieldErrors } from '../../lib/errors';
import { FormActions, TextAreaField, TextField, textOf, useFormErrors } from '../../ui/fields';
import { parseMetadata } from '../products/product-form';

export type EntitlementChanges = BodyOf<'/v1/entitlements/{entitlement_id}', 'patch'>;
type Entitlement = Schemas['EntitlementResponseDto'];

export const ENTITLEMENT_FIELDS = ['expires_at', 'usage_limit', 'metadata'] as const;

/** A datetime-local value for an ISO time, in the browser's zone. */
function localInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function readEntitlementForm(form: FormData, entitlement: Entitlement, now = Date.now()): { body: EntitlementChanges; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const body: EntitlementChanges = {};
  const until = textOf(form, 'expires_at');
  if (!until) body.expires_at = null;
  else if (Number.isNaN(new Date(until).getTime()) || new Date(until).getTime() <= now) errors.expires_at = 'Choose a time in the future, or leave it empty for no end.';
  else body.expires_at = new Date(until).toISOString();
  const uses = textOf(form, 'usage_limit');
  if (!uses) body.usage_limit = null;
  else if (!/^\d+$/.test(uses) || Number(uses) < Math.max(1, entitlement.usage_count)) errors.usage_limit = `Enter a whole number, at least the ${entitlement.usage_count} uses recorded (and 1).`;
  else body.usage_limit = Number(uses);
  const metadata = parseMetadata(textOf(form, 'metadata'));
  if (metadata.error) errors.metadata = metadata.error;
  else body.metadata = metadata.value ?? {};
  return { body, errors };
}

/** Changes when access ends, how many uses it allows and its metadata. */
export function EntitlementForm({ entitlement, pending, error, onSubmit, onCancel }: { entitlement: Entitlement; pending: boolean; error: unknown; onSubmit: (body: EntitlementChanges) => void; onCancel: () => void }) {
  const errors = useFormErrors(ENTITLEMENT_FIELDS, error);
  const [now] = useState(() => Date.now());
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { body, errors: found } = readEntitlementForm(new FormData(event.currentTarget), entitlement, now);
    if (errors.accept(found)) onSubmit(body);
  };
  return (
    <form className="stack form" onSubmit={submit} aria-label="Edit the entitlement" noValidate>
      <TextField label="Access ends" name="expires_at" type="datetime-local" defaultValue={localInput(entitlement.expires_at)} optional error={errors.fields.expires_at} hint="Empty: access never ends." />
      <TextField label="Usage limit" name="usage_limit" inputMode="numeric" defaultValue={entitlement.usage_limit ?? ''} optional error={errors.fields.usage_limit} hint="Empty: unlimited uses." />
      <TextAreaField label="Metadata (JSON)" name="metadata" defaultValue={Object.keys(entitlement.metadata ?? {}).length ? JSON.stringify(entitlement.metadata, null, 2) : ''} optional error={errors.fields.metadata} className="mono" />
      <FormActions error={errors.form} pending={pending} submitLabel="Save changes" onCancel={onCancel} />
    </form>
  );
}
