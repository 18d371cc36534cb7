import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { setCsrfToken } from '../api/client';
import { dashboardApi } from '../api/dashboard';
import { ErrorMessage } from '../components';

export function SignInPage() {
  const queryClient = useQueryClient();
  // Set by the setup page after the password is chosen.
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  const [error, setError] = useState<unknown>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    try {
      const session = await dashboardApi.signIn(String(form.get('email')), String(form.get('password')));
      setCsrfToken(session.csrf_token);
      queryClient.setQueryData(['session'], session);
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <main className="signin" id="main">
      <h1>Sign in to the dashboard</h1>
      {notice && <p role="status">{notice}</p>}
      <form onSubmit={(event) => void submit(event)}>
        <label>
          Email
          <input name="email" type="email" autoComplete="username" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <button type="submit">Sign in</button>
      </form>
      <ErrorMessage error={error} />
    </main>
  );
}

/** The one-time setup link: `/dashboard/setup#token=…` (the fragment never reaches a server log). */
export function SetupPage() {
  const [error, setError] = useState<unknown>(null);
  const navigate = useNavigate();
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    try {
      const { email } = await dashboardApi.setup(token, String(form.get('password')));
      // Off the setup URL, so the used token leaves the address bar and history.
      navigate('/', { replace: true, state: { notice: `Password set for ${email}. Sign in now.` } });
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <main className="signin" id="main">
      <h1>Choose your password</h1>
      <form onSubmit={(event) => void submit(event)}>
        <label>
          New password (at least 12 characters)
          <input name="password" type="password" autoComplete="new-password" minLength={12} required />
        </label>
        <button type="submit">Set password</button>
      </form>
      <ErrorMessage error={error} />
    </main>
  );
}
