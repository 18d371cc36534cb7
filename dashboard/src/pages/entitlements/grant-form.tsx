import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { unwrapPage, type BodyOf } from '../../api/client';
import type { FieldErrors } from '../../lib/errors';
import { useApi, useMode } from '../../lib/mode';
import { FieldGroup, FormError, SubmitButton, TextAreaField, TextField, textOf, useFormErrors } from '../../ui/fields';
import { ProductPicker, type ProductChoice } from '../../ui/product-picker';
import { parseMetadata } from '../products/product-form';

export type GrantBody = BodyOf<'/v1/entitlements', 'post'>;

export const GRANT_FIELDS = ['store_customer_id', 'product_id', 'expires_at', 'usage_limit', 'status', 'metadata', 'store_order_id', 'store_line_item_id'] as const;

type Ending = 'default' | 'date' | 'never';

/** The grant's body from the form, or what a person must fix first. */
export function readGrantForm(form: FormData, choices: { product: ProductChoice | null; ending: Ending; now?: number }): { body: GrantBody; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const customer = textOf(form, 'store_customer_id');
  if (!customer) errors.store_customer_id = 'Enter the customer’s id in your store.';
  if (!choices.product) errors.product_id = 'Choose a product.';
  const body: GrantBody = { store_customer_id: customer, product_id: choices.product?.id ?? '' };
  if (choices.ending === 'date') {
    const text = textOf(form, 'expires_at');
    const date = new Date(text);
    if (!text || Number.isNaN(date.getTime())) errors.expires_at = 'Choose the date and time access ends.';
    else if (date.getTime() <= (choices.now ?? Date.now())) errors.expires_at = 'Choose a time in the future.';
    else body.expires_at = date.toISOString();
  } else if (choices.ending === 'never') body.expires_at = null;
  const uses = textOf(form, 'usage_limit');
  if (uses) {
    if (!/^\d+$/.test(uses) || Number(uses) < 1) errors.usage_limit = 'Enter a whole number, 1 or more.';
    else body.usage_limit = Number(uses);
  }
  if (textOf(form, 'status') === 'pending') body.status = 'pending';
  const metadata = parseMetadata(textOf(form, 'metadata'));
  if (metadata.error) errors.metadata = metadata.error;
  else if (metadata.value) body.metadata = metadata.value;
  const order = textOf(form, 'store_order_id');
  if (order) body.store_order_id = order;
  const line = textOf(form, 'store_line_item_id');
  if (line) body.store_line_item_id = line;
  return { body, errors };
}

function defaultEnding(product: ProductChoice | null): string {
  if (!product) return 'The product’s default';
  if (product.entitlement_type === 'time_limited') return 'The product’s default (days from now, as the product says)';
  if (product.entitlement_type === 'subscription_linked') return 'With the subscription';
  return 'Never (the product’s default)';
}

/** Suggests customers whose store id starts with what is typed; any new id is fine too. */
function useCustomerSuggestions(text: string) {
  const api = useApi();
  const mode = useMode();
  const search = text.trim();
  return useQuery({
    queryKey: [mode, 'customers', 'suggest', search],
    enabled: search.length >= 2,
    staleTime: 10_000,
    queryFn: async () => unwrapPage(await api.GET('/v1/customers', { params: { query: { search, limit: 8 } } })),
  });
}

interface GrantFormProps {
  initialCustomer?: string;
  initialProduct?: ProductChoice | null;
  pending: boolean;
  error: unknown;
  onSubmit: (body: GrantBody) => void;
}

/** Grants a product to a customer (source manual): duration, usage limit, pending start, metadata. */
export function GrantForm({ initialCustomer = '', initialProduct = null, pending, error, onSubmit }: GrantFormProps) {
  const [product, setProduct] = useState<ProductChoice | null>(initialProduct);
  const [ending, setEnding] = useState<Ending>('default');
  const [customerText, setCustomerText] = useState(initialCustomer);
  const suggestions = useCustomerSuggestions(customerText);
  const listId = useId();
  const errors = useFormErrors(GRANT_FIELDS, error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { body, errors: found } = readGrantForm(new FormData(event.currentTarget), { product, ending });
    if (errors.accept(found)) onSubmit(body);
  };
  return (
    <form className="stack form" onSubmit={submit} aria-label="Grant a product" noValidate>
      <TextField
        label="Customer (store customer id)"
        name="store_customer_id"
        value={customerText}
        onChange={(event) => setCustomerText(event.target.value)}
        list={listId}
        maxLength={255}
        autoComplete="off"
        required
        error={errors.fields.store_customer_id}
        hint="Your store’s id for the customer. A new id creates the customer."
      />
      <datalist id={listId}>
        {(suggestions.data?.data ?? []).map((customer) => (
          <option key={customer.id} value={customer.store_customer_id} />
        ))}
      </datalist>
      <ProductPicker label="Product" value={product} onChange={setProduct} error={errors.fields.product_id} name="product_id" />
      <FieldGroup legend="Access ends" error={errors.fields.expires_at} className="choices">
        <label className="choice">
          <input type="radio" name="ending" checked={ending === 'default'} onChange={() => setEnding('default')} /> {defaultEnding(product)}
        </label>
        <label className="choice">
          <input type="radio" name="ending" checked={ending === 'date'} onChange={() => setEnding('date')} /> On a date
        </label>
        <label className="choice">
          <input type="radio" name="ending" checked={ending === 'never'} onChange={() => setEnding('never')} /> Never
        </label>
        {ending === 'date' && <TextField label="Access ends at" name="expires_at" type="datetime-local" required />}
      </FieldGroup>
      <TextField label="Usage limit" name="usage_limit" inputMode="numeric" optional error={errors.fields.usage_limit} hint={product?.entitlement_type === 'usage_limited' ? 'Empty: the product’s limit.' : 'Empty: unlimited uses.'} />
      <FieldGroup legend="Starts" error={errors.fields.status} className="choices">
        <label className="choice">
          <input type="radio" name="status" value="active" defaultChecked /> Now (active)
        </label>
        <label className="choice">
          <input type="radio" name="status" value="pending" /> Later: pending until activated
        </label>
      </FieldGroup>
      <details className="more" open={Boolean(errors.fields.metadata || errors.fields.store_order_id || errors.fields.store_line_item_id) || undefined}>
        <summary>Order reference and metadata</summary>
        <div className="stack">
          <TextField label="Store order id" name="store_order_id" maxLength={255} optional error={errors.fields.store_order_id} />
          <TextField label="Store line item id" name="store_line_item_id" maxLength={255} optional error={errors.fields.store_line_item_id} />
          <TextAreaField label="Metadata (JSON)" name="metadata" optional error={errors.fields.metadata} placeholder='{"order_note": "gift"}' className="mono" />
        </div>
      </details>
      <FormError message={errors.form} />
      <div className="actions">
        <SubmitButton pending={pending} pendingLabel="Granting…">
          Grant
        </SubmitButton>
      </div>
    </form>
  );
}
