import { useState, type FormEvent } from 'react';
import { unwrap, type Schemas } from '../../api/client';
import { Link } from 'react-router';
import { useApi, useModePath } from '../../lib/mode';
import { useWrite } from '../../lib/write';
import { ConfirmButton } from '../../ui/confirm';
import { FormError, SubmitButton, TextField, textOf } from '../../ui/fields';
import { describeFailure } from '../../lib/errors';
import { useCan } from '../../lib/permissions';

type Entitlement = Schemas['EntitlementResponseDto'];
type Action = 'revoke' | 'suspend' | 'reactivate' | 'activate';

/**
 * The statuses each action the dashboard offers may start from: the service's transition table
 * (src/entitlements/entitlement-state-machine.ts) for these four operations. The service's table
 * can't be bundled (it sits among server types), so entitlement-actions.test.ts proves the two agree.
 */
export const ACTION_FROM: Readonly<Record<Action, ReadonlyArray<Entitlement['status']>>> = {
  activate: ['pending'],
  reactivate: ['suspended', 'expired'],
  suspend: ['active'],
  revoke: ['active', 'suspended', 'pending'],
};

/** The actions this status allows, so a revoked row offers none. */
export function allowedActions(status: Entitlement['status']): Action[] {
  return (['activate', 'reactivate', 'suspend', 'revoke'] as const).filter((action) => ACTION_FROM[action].includes(status));
}

export function EntitlementActions({ entitlement, label }: { entitlement: Entitlement; label: string }) {
  const api = useApi();
  const can = useCan();
  const modePath = useModePath();
  const path = { params: { path: { entitlement_id: entitlement.id } } };
  const act = useWrite({
    mutationFn: async ({ action, reason, expires_at, usage_limit }: { action: Action; reason?: string; expires_at?: string; usage_limit?: number }) => {
      if (action === 'revoke') return unwrap(await api.POST('/v1/entitlements/{entitlement_id}/revoke', { ...path, body: { reason: reason || undefined } }));
      if (action === 'suspend') return unwrap(await api.POST('/v1/entitlements/{entitlement_id}/suspend', { ...path, body: { reason: reason || undefined } }));
      if (action === 'activate') return unwrap(await api.POST('/v1/entitlements/{entitlement_id}/activate', { ...path }));
      return unwrap(await api.POST('/v1/entitlements/{entitlement_id}/reactivate', { ...path, body: { ...(expires_at ? { expires_at } : {}), ...(usage_limit ? { usage_limit } : {}) } }));
    },
    invalidates: [['entitlements'], ['events'], ['customers']],
  });
  // A bundle's child follows its parent (the API refuses with MANAGED_BY_PARENT): act on the bundle.
  if (entitlement.parent_entitlement_id)
    return (
      <p className="muted">
        Granted with a bundle: it follows <Link to={modePath(`entitlements/${entitlement.parent_entitlement_id}`)}>the bundle’s entitlement</Link>; revoke or suspend that one.
      </p>
    );
  // Activation is a developer's integration step (entitlements:write); the rest is support's too (entitlements:grant).
  const allowed = allowedActions(entitlement.status).filter((action) => can(action === 'activate' ? 'entitlements:write' : 'entitlements:grant'));
  if (!can('entitlements:grant')) return <p className="muted">Your role can’t change entitlements.</p>;
  if (allowed.length === 0 && entitlement.status === 'revoked') return <p className="muted">Revoked entitlements can’t change; grant the product again to give access back.</p>;
  return (
    <div className="actions">
      {allowed.includes('activate') && (
        <button type="button" className="primary" disabled={act.isPending} onClick={() => act.run({ action: 'activate' })}>
          Activate
        </button>
      )}
      {allowed.includes('reactivate') && entitlement.status === 'suspended' && (
        <button type="button" className="primary" disabled={act.isPending} onClick={() => act.run({ action: 'reactivate' })}>
          Reactivate
        </button>
      )}
      {allowed.includes('suspend') && (
        <ConfirmButton label="Suspend" danger={false} className="secondary" title={`Suspend ${label}?`} confirmLabel="Suspend" reasonLabel="Reason" onConfirm={(reason) => act.runAsync({ action: 'suspend', reason })}>
          <p>Access stops until you reactivate it. Checks answer “not entitled” meanwhile.</p>
        </ConfirmButton>
      )}
      {allowed.includes('revoke') && (
        <ConfirmButton label="Revoke" title={`Revoke ${label}?`} confirmLabel="Revoke access" reasonLabel="Reason" onConfirm={(reason) => act.runAsync({ action: 'revoke', reason })}>
          <p>Access ends now and for good: a revoked entitlement can’t be reactivated.</p>
        </ConfirmButton>
      )}
      {allowed.includes('reactivate') && entitlement.status === 'expired' && <ReactivateExpired pending={act.isPending} onSubmit={(input) => act.run({ action: 'reactivate', ...input })} />}
      {act.error ? (
        <p role="alert" className="error">
          {describeFailure(act.error)}
        </p>
      ) : null}
    </div>
  );
}

/** An expired entitlement comes back with a new end or more uses. */
function ReactivateExpired({ pending, onSubmit }: { pending: boolean; onSubmit: (input: { expires_at?: string; usage_limit?: number }) => void }) {
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const until = textOf(form, 'expires_at');
    const uses = textOf(form, 'usage_limit');
    if (!until && !uses) return setError('Give a new end or a new usage limit.');
    if (until && new Date(until).getTime() <= Date.now()) return setError('Choose an end in the future.');
    setError(null);
    onSubmit({ ...(until ? { expires_at: new Date(until).toISOString() } : {}), ...(uses ? { usage_limit: Number(uses) } : {}) });
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label="Reactivate" noValidate>
      <TextField label="New end" name="expires_at" type="datetime-local" optional />
      <TextField label="New usage limit" name="usage_limit" inputMode="numeric" optional />
      <FormError message={error} />
      <SubmitButton pending={pending}>Reactivate</SubmitButton>
    </form>
  );
}

