import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { unwrap, unwrapPage, type Schemas } from '../../api/client';
import { describeFailure } from '../../lib/errors';
import { formatCount } from '../../lib/format';
import { useApi, useMode } from '../../lib/mode';
import { useWrite } from '../../lib/write';
import { Badge } from '../../ui/badge';
import { ConfirmButton } from '../../ui/confirm';
import { Secret } from '../../ui/copy';
import { FormError, SubmitButton, TextField } from '../../ui/fields';
import { Empty, ErrorMessage, Loading } from '../../ui/states';
import { Table } from '../../ui/table';
import { Time } from '../../ui/time';

type LicenseKey = Schemas['LicenseKeyResponseDto'];
type Activation = Schemas['LicenseActivationResponseDto'];

/**
 * The license keys of an entitlement or of a customer (DESIGN §18): each key as the customer types
 * it, the devices it is active on (each can be deactivated), and this customer's own limit.
 */
export function LicenseKeys({ filter }: { filter: { entitlement_id: string } | { customer_id: string } }) {
  const api = useApi();
  const mode = useMode();
  const keys = useQuery({
    queryKey: [mode, 'license-keys', 'list', filter],
    queryFn: async () => unwrapPage(await api.GET('/v1/license-keys', { params: { query: { ...filter, limit: 100 } } })),
  });
  if (keys.isPending) return <Loading what="the license keys" />;
  if (keys.error) return <ErrorMessage error={keys.error} />;
  if (keys.data.data.length === 0) return <Empty title="No license keys: the product issues none." />;
  return (
    <>
      {keys.data.data.map((key) => (
        <LicenseKeyCard key={key.id} licenseKey={key} />
      ))}
    </>
  );
}

function LicenseKeyCard({ licenseKey }: { licenseKey: LicenseKey }) {
  const api = useApi();
  const mode = useMode();
  const activations = useQuery({
    queryKey: [mode, 'license-keys', 'activations', licenseKey.id],
    queryFn: async () => unwrapPage(await api.GET('/v1/license-keys/{license_key_id}/activations', { params: { path: { license_key_id: licenseKey.id }, query: { limit: 100 } } })),
  });
  const deactivate = useWrite({
    mutationFn: async (activation: Activation) =>
      unwrap(await api.DELETE('/v1/license-keys/{license_key_id}/activations/{activation_id}', { params: { path: { license_key_id: licenseKey.id, activation_id: activation.id } } })),
    invalidates: [['license-keys'], ['events']],
  });
  const limit = licenseKey.activation_limit === null ? 'unlimited' : formatCount(licenseKey.activation_limit);
  return (
    <div className="license-key" data-testid="license-key">
      <Secret value={licenseKey.key} what="license key" testId="license-key-value" />
      <p>
        Status <Badge status={licenseKey.status} />
      </p>
      <p>
        Active on {formatCount(licenseKey.activations_count)} of {limit} devices
        {licenseKey.activation_ttl_seconds !== null && ` · seats released after ${formatCount(licenseKey.activation_ttl_seconds)} s without a heartbeat`}
      </p>
      {activations.isPending && <Loading what="the devices" />}
      <ErrorMessage error={activations.error} />
      {activations.data && activations.data.data.length > 0 && (
        <Table
          caption="Devices"
          rows={activations.data.data}
          rowKey={(activation) => activation.id}
          columns={[
            { header: 'Device', rowHeader: true, cell: (activation) => activation.name ?? activation.fingerprint },
            { header: 'Fingerprint', cell: (activation) => <code>{activation.fingerprint}</code> },
            { header: 'Activated', cell: (activation) => <Time value={activation.created_at} /> },
            { header: 'Last seen', cell: (activation) => <Time value={activation.last_seen_at} /> },
            {
              header: 'Actions',
              cell: (activation) => (
                <ConfirmButton
                  label="Deactivate"
                  ariaLabel={`Deactivate ${activation.name ?? activation.fingerprint}`}
                  title={`Deactivate ${activation.name ?? activation.fingerprint}?`}
                  confirmLabel="Deactivate"
                  onConfirm={() => deactivate.runAsync(activation)}
                >
                  <p>The device loses its seat; the app finds out at its next check and may activate again while a seat is free.</p>
                </ConfirmButton>
              ),
            },
          ]}
        />
      )}
      <ActivationLimitForm licenseKey={licenseKey} />
    </div>
  );
}

/** This customer's own limit of devices, instead of the product's. */
function ActivationLimitForm({ licenseKey }: { licenseKey: LicenseKey }) {
  const api = useApi();
  const [value, setValue] = useState(licenseKey.activation_limit === null ? '' : String(licenseKey.activation_limit));
  const update = useWrite({
    mutationFn: async (activationLimit: number | null) =>
      unwrap(await api.PATCH('/v1/license-keys/{license_key_id}', { params: { path: { license_key_id: licenseKey.id } }, body: { activation_limit: activationLimit } })),
    invalidates: [['license-keys']],
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.run(value.trim() === '' ? null : Number(value));
  };
  return (
    <form onSubmit={submit} className="inline-form">
      <TextField
        label="This customer's device limit"
        name="activation_limit"
        type="number"
        min={1}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        hint="Empty: unlimited. Lowering it releases no device; new activations wait until enough leave."
      />
      <SubmitButton pending={update.isPending}>Save limit</SubmitButton>
      <FormError message={update.error ? describeFailure(update.error) : null} />
    </form>
  );
}
