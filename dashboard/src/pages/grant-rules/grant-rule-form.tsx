import { useState, type FormEvent } from 'react';
import type { BodyOf } from '../../api/client';
import type { FieldErrors } from '../../lib/errors';
import { FormActions, TextField, textOf, useFormErrors } from '../../ui/fields';
import { ProductPicker, type ProductChoice } from '../../ui/product-picker';

export type GrantRuleBody = BodyOf<'/v1/grant-rules', 'post'>;

export const RULE_FIELDS = ['trigger_product_id', 'grant_product_id', 'access_duration_days'] as const;

export function readRuleForm(form: FormData, choices: { trigger: ProductChoice | null; grant: ProductChoice | null }): { body: GrantRuleBody; errors: FieldErrors } {
  const errors: FieldErrors = {};
  if (!choices.trigger) errors.trigger_product_id = 'Choose the product whose grant fires the rule.';
  if (!choices.grant) errors.grant_product_id = 'Choose the product the rule grants.';
  else if (choices.trigger && choices.trigger.id === choices.grant.id) errors.grant_product_id = 'Choose another product than the one that fires the rule.';
  const body: GrantRuleBody = { trigger_product_id: choices.trigger?.id ?? '', grant_product_id: choices.grant?.id ?? '' };
  const days = textOf(form, 'access_duration_days');
  if (days) {
    if (!/^\d+$/.test(days) || Number(days) < 1 || Number(days) > 36500) errors.access_duration_days = 'Enter a whole number of days, 1 to 36,500.';
    else body.access_duration_days = Number(days);
  }
  return { body, errors };
}

/** A rule: when a customer is granted one product, also grant them another. */
export function GrantRuleForm({ pending, error, onSubmit }: { pending: boolean; error: unknown; onSubmit: (body: GrantRuleBody) => void }) {
  const [trigger, setTrigger] = useState<ProductChoice | null>(null);
  const [grant, setGrant] = useState<ProductChoice | null>(null);
  const errors = useFormErrors(RULE_FIELDS, error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { body, errors: found } = readRuleForm(new FormData(event.currentTarget), { trigger, grant });
    if (errors.accept(found)) onSubmit(body);
  };
  return (
    <form className="stack form" onSubmit={submit} aria-label="New grant rule" noValidate>
      <ProductPicker label="When a customer is granted" value={trigger} onChange={setTrigger} error={errors.fields.trigger_product_id} hint="By any source but another rule." />
      <ProductPicker label="Also grant them" value={grant} onChange={setGrant} error={errors.fields.grant_product_id} exclude={trigger ? [trigger.id] : []} hint="Unless they already hold it." />
      <TextField label="Days of access" name="access_duration_days" inputMode="numeric" optional error={errors.fields.access_duration_days} hint="Empty: the granted product’s own duration." />
      <FormActions error={errors.form} pending={pending} submitLabel="Add rule" />
    </form>
  );
}
