import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { describeFailure } from '../lib/errors';
import { useModePath } from '../lib/mode';

/** A page that failed to load or render (a chunk missing after a deploy, a bug). */
export function RouteError() {
  const error = useRouteError();
  return (
    <main id="main" className="signin">
      <h1>This page failed to load</h1>
      <p role="alert" className="error">
        {isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : describeFailure(error)}
      </p>
      <p>
        <a href={window.location.href}>Reload the page</a> (a new version of the dashboard may have been deployed).
      </p>
    </main>
  );
}

export function NotFound() {
  const path = useModePath();
  return (
    <>
      <h1>Page not found</h1>
      <p>
        Nothing lives at this address. <Link to={path()}>Go to the Overview</Link>.
      </p>
    </>
  );
}
