import { useState, type FormEvent } from 'react';
import { unwrap } from '../../api/client';
import { useApi, useMode } from '../../lib/mode';
import { useSession } from '../../shell/session';
import { FormError, SubmitButton, TextField, textOf } from '../../ui/fields';
import { ProductPicker, type ProductChoice } from '../../ui/product-picker';
import { describeFailure } from '../../lib/errors';
import { markChecked } from '../overview/onboarding-state';

type Answer = { entitled: boolean; customer: string; product: string; expires?: string | null; viaBundle: boolean };

/** The access check merchants' code calls, asked from the dashboard: may this customer use this product now? */
export function CheckAccess() {
  const api = useApi();
  const mode = useMode();
  const session = useSession();
  const [product, setProduct] = useState<ProductChoice | null>(null);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [errors, setErrors] = useState<{ customer?: string; product?: string; form?: string }>({});
  const [pending, setPending] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const customer = textOf(new FormData(event.currentTarget), 'store_customer_id');
    const found: typeof errors = {};
    if (!customer) found.customer = 'Enter the store customer id.';
    if (!product) found.product = 'Choose a product.';
    setErrors(found);
    if (!product || !customer) return;
    setPending(true);
    try {
      const result = unwrap(await api.GET('/v1/entitlements/check', { params: { query: { store_customer_id: customer, product_id: product.id } } }));
      setAnswer({ entitled: result.entitled, customer, product: product.name, expires: result.entitlement?.expires_at, viaBundle: result.entitlement?.access_type === 'bundle' });
      markChecked(session.merchant_id, mode);
    } catch (failure) {
      setErrors({ form: describeFailure(failure) });
    } finally {
      setPending(false);
    }
  };
  return (
    <details className="card check">
      <summary>Check access</summary>
      <form className="inline-form" onSubmit={(event) => void submit(event)} aria-label="Check access" noValidate>
        <TextField label="Store customer id" name="store_customer_id" error={errors.customer} />
        <ProductPicker label="Product to check" value={product} onChange={setProduct} error={errors.product} />
        <SubmitButton pending={pending} pendingLabel="Checking…">
          Check
        </SubmitButton>
      </form>
      <FormError message={errors.form ?? null} />
      {answer && (
        <p role="status" className={answer.entitled ? 'notice good' : 'notice bad'}>
          {answer.entitled
            ? `Yes: ${answer.customer} may use ${answer.product}${answer.viaBundle ? ' (through a bundle)' : ''}${answer.expires ? `, until ${new Date(answer.expires).toLocaleString()}` : ''}.`
            : `No: ${answer.customer} may not use ${answer.product} now.`}
        </p>
      )}
    </details>
  );
}
