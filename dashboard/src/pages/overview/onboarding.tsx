import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { unwrapPage } from '../../api/client';
import { dashboardApi } from '../../api/dashboard';
import { useApi, useMode, useModePath } from '../../lib/mode';
import { useSession } from '../../shell/session';
import { wasChecked } from './onboarding-state';

interface Step {
  id: string;
  title: string;
  body: string;
  done: boolean | undefined;
  to: string;
  action: string;
}

const DISMISSED = (merchantId: string, mode: string) => `dashboard.onboarding-dismissed.${merchantId}.${mode}`;

/**
 * How many of a list there are (the list's total), from a one-item page: asked again each time the
 * Overview opens (a one-item page is cheap), so a step done elsewhere a moment ago shows ticked.
 */
function useCount(resource: string, fetchTotal: () => Promise<number>) {
  const mode = useMode();
  return useQuery({ queryKey: [mode, resource, 'count'], queryFn: fetchTotal, staleTime: 0 });
}

/**
 * The first steps of a new merchant, each ticked from what the API already holds (a product, an
 * uploaded file, a grant, an access check asked here, a key, a webhook endpoint), in this mode.
 */
export function Onboarding() {
  const api = useApi();
  const mode = useMode();
  const path = useModePath();
  const session = useSession();
  const [dismissed, setDismissed] = useState(() => window.localStorage.getItem(DISMISSED(session.merchant_id, mode)) !== null);
  const total = (page: { total?: number; data: unknown[] }) => page.total ?? page.data.length;
  const products = useCount('products', async () => total(unwrapPage(await api.GET('/v1/products', { params: { query: { limit: 1 } } }))));
  const files = useCount('files', async () => total(unwrapPage(await api.GET('/v1/files', { params: { query: { limit: 1, upload_status: 'CONFIRMED' } } }))));
  const grants = useCount('entitlements', async () => total(unwrapPage(await api.GET('/v1/entitlements', { params: { query: { limit: 1, granted_after: '1970-01-01T00:00:00.000Z' } } }))));
  const endpoints = useCount('webhook-endpoints', async () => total(unwrapPage(await api.GET('/v1/webhook-endpoints', { params: { query: { limit: 1 } } }))));
  const keys = useQuery({ queryKey: ['api-keys'], queryFn: dashboardApi.listKeys });
  const steps: Step[] = [
    { id: 'product', title: 'Create a product', body: 'What customers buy: an ebook, a course, a licence.', done: products.data === undefined ? undefined : products.data > 0, to: path('products/new'), action: 'New product' },
    { id: 'file', title: 'Upload a file', body: 'On the product’s page: customers download it once entitled.', done: files.data === undefined ? undefined : files.data > 0, to: path('products'), action: 'Open products' },
    { id: 'grant', title: 'Grant it to a customer', body: 'As your store will on each purchase.', done: grants.data === undefined ? undefined : grants.data > 0, to: path('entitlements/new'), action: 'Grant a product' },
    { id: 'check', title: 'Check their access', body: 'The question your app asks before it lets a customer in.', done: wasChecked(session.merchant_id, mode), to: path('entitlements'), action: 'Check access' },
    { id: 'key', title: `Create a ${mode} API key`, body: 'For your backend to ask the same from code.', done: keys.data === undefined ? undefined : keys.data.some((key) => key.mode === mode && !key.revoked_at), to: path('settings/api-keys'), action: 'Create a key' },
    { id: 'webhook', title: 'Add a webhook endpoint', body: 'So your servers hear of every grant, refund and download.', done: endpoints.data === undefined ? undefined : endpoints.data > 0, to: path('webhooks/new'), action: 'Add endpoint' },
  ];
  const doneCount = steps.filter((step) => step.done).length;
  if (dismissed || doneCount === steps.length) return null;
  return (
    <section className="card onboarding" aria-labelledby="onboarding-title">
      <div className="card-title">
        <h2 id="onboarding-title">Get started</h2>
        <p className="muted" aria-live="polite">
          {doneCount} of {steps.length} done
        </p>
      </div>
      <progress max={steps.length} value={doneCount} aria-label="Steps done" />
      <ol className="checklist">
        {steps.map((step) => (
          <li key={step.id} className={step.done ? 'done' : ''} data-step={step.id}>
            <span className="tick" aria-hidden="true">
              {step.done ? '✓' : ''}
            </span>
            <div>
              <strong>{step.title}</strong>
              <span className="visually-hidden">{step.done ? ' (done)' : step.done === false ? ' (to do)' : ''}</span>
              <p className="muted">{step.body}</p>
            </div>
            {!step.done && (
              <Link className="button secondary small" to={step.to}>
                {step.action}
              </Link>
            )}
          </li>
        ))}
      </ol>
      <button
        type="button"
        className="link"
        onClick={() => {
          window.localStorage.setItem(DISMISSED(session.merchant_id, mode), '1');
          setDismissed(true);
        }}
      >
        Hide this list
      </button>
    </section>
  );
}
