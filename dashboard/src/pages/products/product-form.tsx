import { useState, type FormEvent } from 'react';
import type { BodyOf, Schemas } from '../../api/client';
import type { FieldErrors } from '../../lib/errors';
import { FieldGroup, FormActions, SelectField, TextAreaField, TextField, textOf, useFormErrors } from '../../ui/fields';
import { ProductListPicker, type ProductChoice } from '../../ui/product-picker';

export type ProductBody = BodyOf<'/v1/products', 'post'>;
type EntitlementType = ProductBody['entitlement_type'];
type DeliveryMethod = 'FILE' | 'URL' | 'INSTRUCTIONS';

export const ENTITLEMENT_TYPES: ReadonlyArray<{ value: EntitlementType; label: string }> = [
  { value: 'permanent', label: 'Permanent: access never ends' },
  { value: 'time_limited', label: 'Time limited: access for a number of days' },
  { value: 'usage_limited', label: 'Usage limited: a number of uses' },
  { value: 'subscription_linked', label: 'Subscription: access while a store subscription runs' },
];

const METHODS: ReadonlyArray<{ value: DeliveryMethod; label: string; hint: string }> = [
  { value: 'FILE', label: 'Files', hint: 'Customers download files you upload (on the product’s page, once it exists).' },
  { value: 'URL', label: 'A link', hint: 'Customers are sent to an https address.' },
  { value: 'INSTRUCTIONS', label: 'Instructions', hint: 'Customers are told what to do, e.g. how to redeem a code.' },
];

export const PRODUCT_FIELDS = [
  'name',
  'description',
  'entitlement_type',
  'access_duration_days',
  'usage_limit',
  'store_product_id',
  'store_variant_ids',
  'delivery_method',
  'access_url',
  'access_instructions',
  'included_product_ids',
  'metadata',
  'license',
  'license.activation_limit',
  'license.activation_ttl_seconds',
] as const;

/** The API's bounds of a product's license config (DESIGN §18), as its document states them. */
const ACTIVATION_LIMIT_MAX = 100_000;
const ACTIVATION_TTL_MIN_SECONDS = 60;
const ACTIVATION_TTL_MAX_SECONDS = 2_592_000;

/** An optional whole number: '' is null (no limit), else the number or what is wrong with it. */
function optionalWholeNumber(text: string, min: number, max: number): number | null | string {
  return text === '' ? null : wholeNumber(text, min, max);
}

/** The fields folded under "Store ids, variants…": shown open when one of them has an error. */
const MORE_FIELDS = ['store_product_id', 'store_variant_ids', 'included_product_ids', 'metadata'];

function wholeNumber(text: string, min: number, max: number): number | string {
  if (!/^\d+$/.test(text)) return 'Enter a whole number.';
  const value = Number(text);
  if (value < min) return `Enter ${min} or more.`;
  if (value > max) return `Enter ${max.toLocaleString('en')} or less.`;
  return value;
}

/** A JSON object typed by a person ('' is none), or what is wrong with it. */
export function parseMetadata(text: string): { value?: Record<string, unknown>; error?: string } {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return { error: 'Enter a JSON object, like {"key": "value"}.' };
    return { value: value as Record<string, unknown> };
  } catch {
    return { error: 'This is not valid JSON: check the quotes and commas.' };
  }
}

/**
 * The body of a create or update from the form, or the errors a person can fix before it is sent.
 * Fields of another type or delivery method are left out, as the API requires.
 */
export function readProductForm(
  form: FormData,
  choices: { type: EntitlementType; method: DeliveryMethod; bundle: ProductChoice[]; fileIds: string[]; licensed: boolean },
): { body: ProductBody; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const name = textOf(form, 'name');
  if (!name) errors.name = 'Give the product a name.';
  const body: ProductBody = { name, entitlement_type: choices.type, description: textOf(form, 'description') };
  if (choices.type === 'time_limited') {
    const days = wholeNumber(textOf(form, 'access_duration_days'), 1, 36500);
    if (typeof days === 'string') errors.access_duration_days = days;
    else body.access_duration_days = days;
  } else body.access_duration_days = null;
  if (choices.type === 'usage_limited') {
    const uses = wholeNumber(textOf(form, 'usage_limit'), 1, 2_000_000_000);
    if (typeof uses === 'string') errors.usage_limit = uses;
    else body.usage_limit = uses;
  } else body.usage_limit = null;
  body.store_product_id = textOf(form, 'store_product_id') || null;
  const variants = textOf(form, 'store_variant_ids')
    .split(/[\n,]/)
    .map((variant) => variant.trim())
    .filter(Boolean);
  if (variants.length > 100) errors.store_variant_ids = 'List at most 100 variants.';
  else if (variants.some((variant) => variant.length > 255)) errors.store_variant_ids = 'A variant id has at most 255 characters.';
  body.store_variant_ids = [...new Set(variants)];
  if (choices.method === 'URL') {
    const url = textOf(form, 'access_url');
    if (!/^https:\/\/\S+$/.test(url)) errors.access_url = 'Enter a full https:// address.';
    body.fulfillment_config = { delivery_method: 'URL', access_url: url };
  } else if (choices.method === 'INSTRUCTIONS') {
    const instructions = textOf(form, 'access_instructions');
    if (!instructions) errors.access_instructions = 'Write what the customer should do.';
    body.fulfillment_config = { delivery_method: 'INSTRUCTIONS', access_instructions: instructions };
  } else {
    body.fulfillment_config = { delivery_method: 'FILE', file_ids: choices.fileIds };
  }
  body.included_product_ids = choices.bundle.map((product) => product.id);
  const metadata = parseMetadata(textOf(form, 'metadata'));
  if (metadata.error) errors.metadata = metadata.error;
  body.metadata = metadata.value ?? {};
  body.license = null;
  if (choices.licensed) {
    const limit = optionalWholeNumber(textOf(form, 'activation_limit'), 1, ACTIVATION_LIMIT_MAX);
    const ttl = optionalWholeNumber(textOf(form, 'activation_ttl_seconds'), ACTIVATION_TTL_MIN_SECONDS, ACTIVATION_TTL_MAX_SECONDS);
    if (typeof limit === 'string') errors['license.activation_limit'] = limit;
    if (typeof ttl === 'string') errors['license.activation_ttl_seconds'] = ttl;
    if (typeof limit !== 'string' && typeof ttl !== 'string') body.license = { activation_limit: limit, activation_ttl_seconds: ttl };
  }
  return { body, errors };
}

interface ProductFormProps {
  product?: Schemas['ProductResponseDto'];
  /** The bundle's contents of the product edited, by name. */
  bundle?: ProductChoice[];
  pending: boolean;
  error: unknown;
  submitLabel: string;
  onSubmit: (body: ProductBody) => void;
  onCancel?: () => void;
}

/** Creates or edits a product of any type and delivery method, with store ids, variants and bundle contents. */
export function ProductForm({ product, bundle: initialBundle = [], pending, error, submitLabel, onSubmit, onCancel }: ProductFormProps) {
  const [type, setType] = useState<EntitlementType>(product?.entitlement_type ?? 'permanent');
  const [method, setMethod] = useState<DeliveryMethod>(product?.fulfillment_config.delivery_method ?? 'FILE');
  const [bundle, setBundle] = useState<ProductChoice[]>(initialBundle);
  const [licensed, setLicensed] = useState(Boolean(product?.license));
  const errors = useFormErrors(PRODUCT_FIELDS, error);
  const [moreOpen, setMoreOpen] = useState(Boolean(product?.store_product_id || product?.store_variant_ids.length || initialBundle.length || Object.keys(product?.metadata ?? {}).length));
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { body, errors: found } = readProductForm(new FormData(event.currentTarget), { type, method, bundle, fileIds: product?.fulfillment_config.file_ids ?? [], licensed });
    if (errors.accept(found)) onSubmit(body);
  };
  const fieldError = (name: string) => errors.fields[name];
  return (
    <form className="stack form" onSubmit={submit} aria-label={product ? `Edit ${product.name}` : 'New product'} noValidate>
      <TextField label="Name" name="name" defaultValue={product?.name} maxLength={255} required error={fieldError('name')} autoFocus={!product} />
      <TextAreaField label="Description" name="description" defaultValue={product?.description} maxLength={5000} optional error={fieldError('description')} />
      <SelectField
        label="What a grant gives"
        name="entitlement_type"
        value={type}
        onChange={(event) => setType(event.target.value as EntitlementType)}
        options={ENTITLEMENT_TYPES}
        error={fieldError('entitlement_type')}
        hint={product ? 'A change applies to later grants only.' : undefined}
      />
      {type === 'time_limited' && (
        <TextField label="Days of access" name="access_duration_days" inputMode="numeric" defaultValue={product?.access_duration_days ?? 30} required error={fieldError('access_duration_days')} hint="Counted from the grant; 1 to 36,500." />
      )}
      {type === 'usage_limited' && (
        <TextField label="Uses allowed" name="usage_limit" inputMode="numeric" defaultValue={product?.usage_limit ?? 10} required error={fieldError('usage_limit')} hint="Your code records each use; access ends at the limit." />
      )}
      <FieldGroup legend="How access is delivered" error={fieldError('delivery_method')} className="choices">
        {METHODS.map((choice) => (
          <label key={choice.value} className="choice">
            <input type="radio" name="delivery_method" value={choice.value} checked={method === choice.value} onChange={() => setMethod(choice.value)} />
            <span>
              <strong>{choice.label}</strong> <small>{choice.hint}</small>
            </span>
          </label>
        ))}
      </FieldGroup>
      {method === 'URL' && (
        <TextField label="Access URL" name="access_url" type="url" placeholder="https://course.example.com/enroll" defaultValue={product?.fulfillment_config.access_url ?? ''} maxLength={2048} required error={fieldError('access_url')} />
      )}
      {method === 'INSTRUCTIONS' && (
        <TextAreaField label="Instructions for the customer" name="access_instructions" defaultValue={product?.fulfillment_config.access_instructions ?? ''} maxLength={10000} required error={fieldError('access_instructions')} />
      )}
      <FieldGroup legend="License keys" error={fieldError('license')} hint={product ? 'A change applies to later grants only.' : undefined}>
        <label className="checkbox">
          <input type="checkbox" name="licensed" checked={licensed} onChange={(event) => setLicensed(event.target.checked)} /> Issue a license key with each grant
        </label>
        {licensed && (
          <>
            <TextField
              label="Devices per key"
              name="activation_limit"
              inputMode="numeric"
              defaultValue={product?.license?.activation_limit ?? ''}
              optional
              error={fieldError('license.activation_limit')}
              hint={`Devices one key may be active on at once, 1 to ${ACTIVATION_LIMIT_MAX.toLocaleString('en')}; empty is unlimited. A customer's own limit is set on their key.`}
            />
            <TextField
              label="Release a device after (seconds without a heartbeat)"
              name="activation_ttl_seconds"
              inputMode="numeric"
              defaultValue={product?.license?.activation_ttl_seconds ?? ''}
              optional
              error={fieldError('license.activation_ttl_seconds')}
              hint={`Floating seats: ${ACTIVATION_TTL_MIN_SECONDS} to ${ACTIVATION_TTL_MAX_SECONDS.toLocaleString('en')} (30 days); empty keeps a device until it is deactivated.`}
            />
          </>
        )}
      </FieldGroup>
      <details className="more" open={moreOpen || MORE_FIELDS.some((name) => Boolean(fieldError(name)))} onToggle={(event) => setMoreOpen(event.currentTarget.open)}>
        <summary>Store ids, variants, bundle contents and metadata</summary>
        <div className="stack">
          <TextField label="Store product id" name="store_product_id" defaultValue={product?.store_product_id ?? ''} maxLength={255} optional error={fieldError('store_product_id')} hint="The product’s id in your store (Shopify, Stripe…): orders and grants can name it instead of ours." />
          <TextAreaField label="Store variant ids" name="store_variant_ids" defaultValue={product?.store_variant_ids.join('\n') ?? ''} optional error={fieldError('store_variant_ids')} hint="One per line: variants an order may name for this product." />
          <ProductListPicker
            label="Bundle contents"
            value={bundle}
            onChange={setBundle}
            exclude={product ? [product.id] : []}
            error={fieldError('included_product_ids')}
            hint="Products granted with this one. Choosing any makes this product a bundle."
          />
          <TextAreaField label="Metadata (JSON)" name="metadata" defaultValue={product && Object.keys(product.metadata ?? {}).length ? JSON.stringify(product.metadata, null, 2) : ''} optional error={fieldError('metadata')} placeholder='{"isbn": "978-0-00-000000-0"}' className="mono" />
        </div>
      </details>
      <FormActions error={errors.form} pending={pending} submitLabel={submitLabel} onCancel={onCancel} />
    </form>
  );
}
