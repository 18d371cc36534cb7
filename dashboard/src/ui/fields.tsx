import { useId, useState, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { formErrorsOf, type FieldErrors } from '../lib/errors';

interface FieldFrame {
  label: ReactNode;
  name: string;
  error?: string;
  hint?: ReactNode;
  optional?: boolean;
}

/** Label, control, hint and the field's error beside it, tied together for screen readers. */
function useFieldIds(error?: string, hint?: ReactNode) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return { id, hintId, errorId, describedBy };
}

function Frame({ label, optional, error, hint, ids, children }: Omit<FieldFrame, 'name'> & { ids: ReturnType<typeof useFieldIds>; children: ReactNode }) {
  return (
    <div className={error ? 'field has-error' : 'field'}>
      <label htmlFor={ids.id}>
        {label}
        {optional && <span className="optional"> (optional)</span>}
      </label>
      {children}
      {hint && (
        <p id={ids.hintId} className="hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={ids.errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

export function TextField({ label, name, error, hint, optional, ...input }: FieldFrame & InputHTMLAttributes<HTMLInputElement>) {
  const ids = useFieldIds(error, hint);
  return (
    <Frame label={label} optional={optional} error={error} hint={hint} ids={ids}>
      <input id={ids.id} name={name} aria-invalid={error ? true : undefined} aria-describedby={ids.describedBy} {...input} />
    </Frame>
  );
}

export function TextAreaField({ label, name, error, hint, optional, ...textarea }: FieldFrame & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const ids = useFieldIds(error, hint);
  return (
    <Frame label={label} optional={optional} error={error} hint={hint} ids={ids}>
      <textarea id={ids.id} name={name} aria-invalid={error ? true : undefined} aria-describedby={ids.describedBy} rows={3} {...textarea} />
    </Frame>
  );
}

export function SelectField({
  label,
  name,
  error,
  hint,
  optional,
  options,
  ...select
}: FieldFrame & SelectHTMLAttributes<HTMLSelectElement> & { options: ReadonlyArray<{ value: string; label: string }> }) {
  const ids = useFieldIds(error, hint);
  return (
    <Frame label={label} optional={optional} error={error} hint={hint} ids={ids}>
      <select id={ids.id} name={name} aria-invalid={error ? true : undefined} aria-describedby={ids.describedBy} {...select}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Frame>
  );
}

/** A group of controls (checkboxes, a picker) with one legend and one error. */
export function FieldGroup({ legend, error, hint, children, className }: { legend: ReactNode; error?: string; hint?: ReactNode; children: ReactNode; className?: string }) {
  const ids = useFieldIds(error, hint);
  return (
    <fieldset className={`${className ?? ''} ${error ? 'has-error' : ''}`.trim()} aria-describedby={ids.describedBy} aria-invalid={error ? true : undefined}>
      <legend>{legend}</legend>
      {children}
      {hint && (
        <p id={ids.hintId} className="hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={ids.errorId} className="field-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** The form's submit button: disabled, and saying so, while its request runs. */
export function SubmitButton({ pending, children, pendingLabel, disabled }: { pending: boolean; children: ReactNode; pendingLabel?: string; disabled?: boolean }) {
  return (
    <button type="submit" className="primary" disabled={pending || disabled} aria-busy={pending || undefined}>
      {pending ? (pendingLabel ?? 'Saving…') : children}
    </button>
  );
}

export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="error">
      {message}
    </p>
  );
}

/**
 * A form's errors: what the browser-side check found on the last submit, else what the API said,
 * beside the field it names (or for the whole form). `check` returns the errors of an input; an
 * input with none may be sent.
 */
export function useFormErrors(fields: readonly string[], serverError: unknown) {
  const [local, setLocal] = useState<FieldErrors>({});
  const server = formErrorsOf(serverError, fields);
  const hasLocal = Object.keys(local).length > 0;
  return {
    fields: hasLocal ? local : server.fields,
    form: hasLocal ? null : server.form,
    /** Records the browser-side errors of a submit; true when there are none. */
    accept(errors: FieldErrors): boolean {
      setLocal(errors);
      return Object.keys(errors).length === 0;
    },
  };
}

/** A FormData value as trimmed text ('' when absent). */
export function textOf(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value.trim() : '';
}
