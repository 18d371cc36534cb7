import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { http, page, resetSent, sent, server } from '../../../test/api-mock';
import { renderAt } from '../../../test/render';
import { AuditLogPage } from './audit-log-page';

const ROW = {
  id: 'aud_1',
  created_at: '2026-12-01T10:00:00.000Z',
  actor: { type: 'api_key', id: 'key_1', label: 'eh_test_AbCd' },
  action: 'entitlements.revoke',
  object: { type: 'entitlement', id: 'ent_01jd8x3k2m4n5p6q7r8s9t0v1w' },
  mode: 'test',
  request_id: 'req_1',
  client_address: '203.0.113.7',
  status: 'succeeded',
};

beforeEach(() => {
  resetSent();
  server.use(http.get('*/v1/audit-log', () => page([ROW, { ...ROW, id: 'aud_2', actor: { type: 'user', id: 'user_1', label: 'ada@example.com' }, action: 'dashboardApi.signIn', object: { type: 'dashboard_user', id: 'user_1' }, mode: null, status: 'failed' }])));
});

describe('the audit log page', () => {
  it('lists who did what, linking the object to its page', async () => {
    renderAt('/test/audit-log', <AuditLogPage />, { path: '/:mode/audit-log' });
    expect(await screen.findByText('entitlements.revoke')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: ROW.object.id })).toHaveAttribute('href', `/test/entitlements/${ROW.object.id}`);
    expect(screen.getByText('API key eh_test_AbCd…')).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByText('failed')).toBeInTheDocument();
  });

  it('exports every page of the log as filtered now, as CSV', async () => {
    URL.createObjectURL = () => 'blob:audit';
    URL.revokeObjectURL = () => undefined;
    const { user } = renderAt('/live/audit-log?action=entitlements.revoke', <AuditLogPage />, { path: '/:mode/audit-log' });
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(sent.some((request) => request.path === '/v1/audit-log' && request.headers.get('Accept') === 'text/csv')).toBe(true));
    const exported = sent.find((request) => request.path === '/v1/audit-log' && request.headers.get('Accept') === 'text/csv');
    expect(exported?.query.get('action')).toBe('entitlements.revoke');
    expect(exported?.headers.get('Eh-Mode')).toBe('live');
  });

  it('filters by the actor a row names', async () => {
    const { user } = renderAt('/test/audit-log', <AuditLogPage />, { path: '/:mode/audit-log' });
    await user.click(await screen.findByRole('button', { name: 'ada@example.com' }));
    await waitFor(() => expect(sent.some((request) => request.path === '/v1/audit-log' && request.query.get('actor_id') === 'user_1')).toBe(true));
  });
});
