import { useState } from 'react';

/** Copies a text to the clipboard and says so; "Copy failed" where the browser refuses. */
export function CopyButton({ text, label = 'Copy', what }: { text: string; label?: string; what?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <button type="button" className="secondary small" onClick={() => void copy()} aria-label={what ? `${label} ${what}` : undefined}>
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : label}
      <span className="visually-hidden" aria-live="polite">
        {state === 'copied' ? ' (copied to the clipboard)' : ''}
      </span>
    </button>
  );
}

/** A secret shown once (an API key, a signing secret, a setup link), with its copy button. */
export function Secret({ value, what, testId }: { value: string; what: string; testId?: string }) {
  return (
    <div className="secret-box">
      <code className="secret" data-testid={testId}>
        {value}
      </code>
      <CopyButton text={value} what={what} />
    </div>
  );
}

/** An id in monospace with a copy button: for people who paste it into code or support tickets. */
export function Id({ value }: { value: string }) {
  return (
    <span className="id">
      <code>{value}</code> <CopyButton text={value} what={value} label="Copy" />
    </span>
  );
}
