import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { failure, http, ok, resetSent, sentTo, server, sessionAs } from '../../../test/api-mock';
import { renderAt } from '../../../test/render';
import { TeamPage } from './team-page';

const ADA = { id: 'du_1', email: 'ada@example.com', created_at: '2026-11-01T00:00:00.000Z', last_signed_in_at: '2026-11-26T09:00:00.000Z', setup_pending: false, role: 'owner', test_only: false };
const GRACE = { id: 'du_2', email: 'grace@example.com', created_at: '2026-11-02T00:00:00.000Z', last_signed_in_at: null, setup_pending: true, role: 'viewer', test_only: false };

beforeEach(() => {
  resetSent();
  server.use(http.get('*/dashboard/api/team', () => ok([ADA, GRACE])));
});

describe('Settings → Team', () => {
  it('lists members with their last sign-in and invites one, showing the one-time link', async () => {
    server.use(http.post('*/dashboard/api/team/invitations', () => ok({ user: { ...GRACE, id: 'du_3', email: 'lin@example.com' }, setup_url: 'http://localhost/dashboard/setup#token=abc', setup_url_expires_at: '2026-11-27T10:00:00.000Z' }, 201)));
    const { user } = renderAt('/test/settings/team', <TeamPage />);
    const table = await screen.findByRole('table', { name: 'Team members' });
    expect(within(table).getByRole('rowheader', { name: /ada@example.com \(you\)/ })).toBeInTheDocument();
    expect(within(table).getByText('Never')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'lin@example.com');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByTestId('setup-link')).toHaveTextContent('http://localhost/dashboard/setup#token=abc');
    expect(sentTo('POST', '/dashboard/api/team/invitations')[0].body).toEqual({ email: 'lin@example.com', role: 'viewer', test_only: false });
    expect(screen.getByLabelText('Email')).toHaveValue('');
  });

  it('shows why an invitation was refused, beside the email', async () => {
    server.use(http.post('*/dashboard/api/team/invitations', () => failure(409, 'DASHBOARD_USER_EXISTS', "Invalid 'email': grace@example.com is already a member", 'email')));
    const { user } = renderAt('/test/settings/team', <TeamPage />);
    await user.type(screen.getByLabelText('Email'), 'grace@example.com');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Grace@example.com is already a member'));
    expect(screen.getByLabelText('Email')).toHaveValue('grace@example.com');
  });

  it('removes a member after confirming', async () => {
    server.use(http.delete('*/dashboard/api/team/:id', () => ok({ id: 'du_2', deleted: true })));
    const { user } = renderAt('/test/settings/team', <TeamPage />);
    await user.click(await screen.findByRole('button', { name: 'Remove grace@example.com' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Remove grace@example.com?' })).getByRole('button', { name: 'Remove from the team' }));
    await waitFor(() => expect(sentTo('DELETE', '/dashboard/api/team/du_2')).toHaveLength(1));
  });

  it('changes a member’s role from the list', async () => {
    server.use(http.patch('*/dashboard/api/team/:id', () => ok({ ...GRACE, role: 'support' })));
    const { user } = renderAt('/test/settings/team', <TeamPage />);
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Role of grace@example.com' }), 'support');
    await waitFor(() => expect(sentTo('PATCH', '/dashboard/api/team/du_2')).toHaveLength(1));
    expect(sentTo('PATCH', '/dashboard/api/team/du_2')[0].body).toEqual({ role: 'support' });
    // The only owner can't be changed from here (the server says 409 anyway).
    expect(screen.queryByRole('combobox', { name: 'Role of ada@example.com' })).not.toBeInTheDocument();
  });

  it('shows a member without team:manage the team and nothing to change', async () => {
    renderAt('/test/settings/team', <TeamPage />, { session: sessionAs('support', ['entitlements:read', 'entitlements:grant']) });
    await screen.findByRole('table', { name: 'Team members' });
    expect(screen.queryByRole('form', { name: 'Invite a teammate' })).not.toBeInTheDocument();
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remove|New link/ })).not.toBeInTheDocument();
  });
});
