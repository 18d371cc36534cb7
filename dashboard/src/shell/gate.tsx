import { Outlet } from 'react-router';
import { ErrorMessage, Loading } from '../ui/states';
import { SessionProvider, useSessionQuery } from './session';
import { SignInPage } from './sign-in-page';

/** Every page needs a session: without one, sign-in shows in its place (the address is kept). */
export function SessionGate() {
  const session = useSessionQuery();
  if (session.isPending) return <Loading what="your session" />;
  if (session.error) return <ErrorMessage error={session.error} />;
  if (!session.data) return <SignInPage />;
  return (
    <SessionProvider session={session.data}>
      <Outlet />
    </SessionProvider>
  );
}
