import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { describeFailure } from '../lib/errors';

interface ConfirmProps {
  /** The button that opens the dialog. */
  label: ReactNode;
  /** Its accessible name when the label alone is ambiguous in a list ("Revoke key eh_test_4fGh"). */
  ariaLabel?: string;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** Ask for a reason (revoke, suspend, refund): its label; the text is passed to onConfirm. */
  reasonLabel?: string;
  danger?: boolean;
  disabled?: boolean;
  className?: string;
  onConfirm: (reason: string) => Promise<unknown>;
}

/**
 * An irreversible action asked twice: the button opens a modal dialog that says what will happen,
 * and only its confirm button acts. The dialog stays open, its buttons disabled, while the request
 * runs, and shows the failure if there is one.
 */
export function ConfirmButton({ label, ariaLabel, title, children, confirmLabel, reasonLabel, danger = true, disabled, className, onConfirm }: ConfirmProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const id = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!open || !element) return;
    // Browsers make it modal (focus kept inside, Escape closes); jsdom has no showModal.
    if (typeof element.showModal === 'function') element.showModal();
    else element.setAttribute('open', '');
    return () => {
      if (typeof element.close === 'function' && element.open) element.close();
    };
  }, [open]);

  // The dialog leaves the page when it closes: focus goes back to the button that opened it, not to
  // the page's body. After the commit, once the modal dialog (which makes the rest inert) is gone.
  const wasOpen = useRef(false);
  useEffect(() => {
    if (open) wasOpen.current = true;
    else if (wasOpen.current) {
      wasOpen.current = false;
      opener.current?.focus();
    }
  }, [open]);

  const close = () => {
    if (pending) return;
    setOpen(false);
    setError(null);
  };
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const reason = String(new FormData(event.currentTarget).get('reason') ?? '').trim();
    setPending(true);
    setError(null);
    try {
      await onConfirm(reason);
      setOpen(false);
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(false);
    }
  };
  return (
    <>
      <button ref={opener} type="button" className={className ?? (danger ? 'danger-outline' : 'secondary')} aria-label={ariaLabel} disabled={disabled} onClick={() => setOpen(true)}>
        {label}
      </button>
      {open && (
        <dialog
          ref={dialog}
          className="confirm"
          aria-labelledby={`${id}-title`}
          aria-describedby={`${id}-body`}
          onCancel={(event) => {
            event.preventDefault();
            close();
          }}
        >
          <form onSubmit={(event) => void submit(event)}>
            <h2 id={`${id}-title`}>{title}</h2>
            <div id={`${id}-body`}>{children}</div>
            {reasonLabel && (
              <div className="field">
                <label htmlFor={`${id}-reason`}>
                  {reasonLabel}
                  <span className="optional"> (optional)</span>
                </label>
                <input id={`${id}-reason`} name="reason" maxLength={500} />
              </div>
            )}
            {error ? (
              <p role="alert" className="error">
                {describeFailure(error)}
              </p>
            ) : null}
            <div className="actions">
              <button type="button" className="secondary" onClick={close} disabled={pending}>
                Cancel
              </button>
              <button type="submit" className={danger ? 'danger' : 'primary'} disabled={pending} aria-busy={pending || undefined} autoFocus>
                {pending ? 'Working…' : confirmLabel}
              </button>
            </div>
          </form>
        </dialog>
      )}
    </>
  );
}
