import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { dashboardApi } from '../api/dashboard';
import { describeFailure } from '../lib/errors';
import { FormError, SubmitButton, TextField } from '../ui/fields';

/** The one-time setup link: `/dashboard/setup#token=…` (the fragment never reaches a server log). */
export function SetupPage() {
  const navigate = useNavigate();
  const [errors, setErrors] = useState<{ password?: string; confirm?: string; form?: string }>({});
  const [pending, setPending] = useState(false);
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password') ?? '');
    const found: typeof errors = {};
    if (password.length < 12) found.password = 'Use at least 12 characters.';
    else if (password !== String(form.get('confirm') ?? '')) found.confirm = 'The two passwords differ.';
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    try {
      const { email } = await dashboardApi.setup(token, password);
      // Off the setup URL, so the used token leaves the address bar and the history.
      navigate('/', { replace: true, state: { notice: `Password set for ${email}. Sign in now.` } });
    } catch (failure) {
      setErrors({ form: describeFailure(failure) });
    } finally {
      setPending(false);
    }
  };
  return (
    <main className="signin" id="main">
      <h1>Choose your password</h1>
      {!token && (
        <p role="alert" className="error">
          This page needs the link you were given (it ends in #token=…). Ask a teammate for a new one.
        </p>
      )}
      <form className="stack card" onSubmit={(event) => void submit(event)} aria-label="Choose your password" noValidate>
        <TextField label="New password (at least 12 characters)" name="password" type="password" autoComplete="new-password" required error={errors.password} />
        <TextField label="The same password again" name="confirm" type="password" autoComplete="new-password" required error={errors.confirm} />
        <FormError message={errors.form ?? null} />
        <SubmitButton pending={pending} disabled={!token}>
          Set password
        </SubmitButton>
      </form>
    </main>
  );
}
