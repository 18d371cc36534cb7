import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useLocation } from 'react-router';
import { setCsrfToken } from '../api/client';
import { dashboardApi } from '../api/dashboard';
import { describeFailure } from '../lib/errors';
import { FormError, SubmitButton, TextField, textOf } from '../ui/fields';
import { SESSION_KEY } from './session';

/** Sign-in, shown in place of any page while there is no session (the address is kept). */
export function SignInPage() {
  const queryClient = useQueryClient();
  // Set by the setup page once the password is chosen.
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    try {
      const session = await dashboardApi.signIn(textOf(form, 'email'), String(form.get('password') ?? ''));
      setCsrfToken(session.csrf_token);
      queryClient.setQueryData(SESSION_KEY, session);
    } catch (failure) {
      setError(describeFailure(failure));
    } finally {
      setPending(false);
    }
  };
  return (
    <main className="signin" id="main">
      <h1>Sign in to your dashboard</h1>
      {notice && (
        <p role="status" className="notice">
          {notice}
        </p>
      )}
      <form className="stack card" onSubmit={(event) => void submit(event)} aria-label="Sign in">
        <TextField label="Email" name="email" type="email" autoComplete="username" required />
        <TextField label="Password" name="password" type="password" autoComplete="current-password" required />
        <FormError message={error} />
        <SubmitButton pending={pending} pendingLabel="Signing in…">
          Sign in
        </SubmitButton>
      </form>
      <p className="muted">No account? Ask a teammate to invite you from Settings → Team.</p>
    </main>
  );
}
