import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { dashboardApi, type Role, type SetupLink, type TeamMember } from '../../api/dashboard';
import { useWrite } from '../../lib/write';
import { useSession, useSignOut } from '../../shell/session';
import { Badge } from '../../ui/badge';
import { ConfirmButton } from '../../ui/confirm';
import { Secret } from '../../ui/copy';
import { FormError, SelectField, SubmitButton, TextField, textOf, useFormErrors } from '../../ui/fields';
import { PageHeader, Section } from '../../ui/page';
import { Empty, ErrorMessage, Loading } from '../../ui/states';
import { Table } from '../../ui/table';
import { Time } from '../../ui/time';

/** DESIGN §11's roles, as the team page names and explains them. */
export const ROLE_LABELS: Record<Role, { label: string; may: string }> = {
  owner: { label: 'Owner', may: 'everything, including the team and other owners' },
  admin: { label: 'Admin', may: 'everything but changing or removing an owner' },
  developer: { label: 'Developer', may: 'API keys, webhooks, products, files, entitlements, imports; reads all; no team' },
  support: { label: 'Support', may: 'reads all; grants, suspends, reactivates and revokes entitlements; redelivers events; sends portal links' },
  viewer: { label: 'Viewer', may: 'reads only' },
};
const ROLE_ORDER: Role[] = ['owner', 'admin', 'developer', 'support', 'viewer'];

/** The people who can sign in to this merchant's dashboard and their roles (DESIGN §11 Team). */
export function TeamPage() {
  const session = useSession();
  const signOut = useSignOut();
  const team = useQuery({ queryKey: ['team'], queryFn: dashboardApi.team });
  const [link, setLink] = useState<{ kind: 'invite' | 'reset'; value: SetupLink } | null>(null);
  const manages = session.scopes.includes('team:manage');
  const managesOwners = session.scopes.includes('team:owners');
  const invite = useWrite({
    mutationFn: (invitation: { email: string; role: Role; test_only: boolean }, key: string) => dashboardApi.invite(invitation, key),
    onSuccess: (created) => {
      setLink({ kind: 'invite', value: created });
      void team.refetch();
    },
  });
  const reset = useWrite({
    mutationFn: (userId: string, key: string) => dashboardApi.resetLink(userId, key),
    onSuccess: (created) => setLink({ kind: 'reset', value: created }),
  });
  const change = useWrite({
    mutationFn: (input: { member: TeamMember; role?: Role; test_only?: boolean }) => dashboardApi.updateMember(input.member.id, { role: input.role, test_only: input.test_only }),
    onSuccess: () => void team.refetch(),
  });
  const remove = useWrite({
    mutationFn: (member: TeamMember) => dashboardApi.removeMember(member.id),
    onSuccess: (_, member) => {
      if (member.id === session.user_id) void signOut();
      else void team.refetch();
    },
  });
  const inviteErrors = useFormErrors(['email'], invite.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const email = textOf(data, 'email');
    if (!inviteErrors.accept(/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? {} : { email: 'Enter an email address, like ada@example.com.' })) return;
    invite.runAsync({ email, role: textOf(data, 'role') as Role, test_only: data.get('test_only') === 'on' }).then(() => form.reset(), () => undefined);
  };
  const members = team.data ?? [];
  const owners = members.filter((member) => member.role === 'owner').length;
  /** Only owners touch owners; the only owner stays (the server refuses both anyway). */
  const mayChange = (member: TeamMember) => manages && (member.role !== 'owner' || managesOwners);
  const assignable = ROLE_ORDER.filter((role) => role !== 'owner' || managesOwners);
  return (
    <>
      <PageHeader title="Team" description={`You are ${ROLE_LABELS[session.role].label.toLowerCase()}${session.test_only ? ', limited to test mode' : ''}: ${ROLE_LABELS[session.role].may}.`} />
      {manages && (
        <Section title="Invite a teammate">
          <form className="inline-form" onSubmit={submit} aria-label="Invite a teammate" noValidate>
            <TextField label="Email" name="email" type="email" autoComplete="off" required error={inviteErrors.fields.email} />
            <SelectField label="Role" name="role" defaultValue="viewer" options={assignable.map((role) => ({ value: role, label: ROLE_LABELS[role].label }))} />
            <label className="checkbox">
              <input type="checkbox" name="test_only" /> Test mode only
            </label>
            <SubmitButton pending={invite.isPending} pendingLabel="Inviting…">
              Invite
            </SubmitButton>
          </form>
          <FormError message={inviteErrors.form} />
          {link && (
            <div role="status" className="notice">
              <p>
                {link.kind === 'invite' ? 'Send this link to' : 'Password reset link for'} <strong>{link.value.user.email}</strong>. It works once, until <Time value={link.value.setup_url_expires_at} />; nobody
                else is sent it.
              </p>
              <Secret value={link.value.setup_url} what="the setup link" testId="setup-link" />
            </div>
          )}
        </Section>
      )}
      <Section title="Members">
        {team.isPending && <Loading what="the team" />}
        <ErrorMessage error={team.error ?? reset.error ?? remove.error ?? change.error} />
        {team.data?.length === 0 && <Empty title="Nobody yet." />}
        {members.length > 0 && (
          <Table<TeamMember>
            caption="Team members"
            rows={members}
            rowKey={(member) => member.id}
            columns={[
              {
                header: 'Email',
                rowHeader: true,
                cell: (member) => (
                  <>
                    {member.email} {member.id === session.user_id ? <small className="muted">(you)</small> : null}
                  </>
                ),
              },
              {
                header: 'Role',
                cell: (member) =>
                  mayChange(member) && !(member.role === 'owner' && owners <= 1) ? (
                    <select
                      aria-label={`Role of ${member.email}`}
                      value={member.role}
                      disabled={change.isPending}
                      onChange={(event) => change.run({ member, role: event.target.value as Role })}
                    >
                      {assignable.map((role) => (
                        <option key={role} value={role}>
                          {ROLE_LABELS[role].label}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <span>
                      {ROLE_LABELS[member.role].label}
                      {member.role === 'owner' && owners <= 1 ? <small className="muted"> (the only owner)</small> : null}
                    </span>
                  ),
              },
              {
                header: 'Modes',
                cell: (member) =>
                  mayChange(member) ? (
                    <label className="checkbox">
                      <input type="checkbox" checked={member.test_only} disabled={change.isPending} onChange={(event) => change.run({ member, test_only: event.target.checked })} /> Test only
                    </label>
                  ) : member.test_only ? (
                    'Test only'
                  ) : (
                    'Test and live'
                  ),
              },
              { header: 'Status', cell: (member) => <Badge status={member.setup_pending ? 'pending' : 'active'} label={member.setup_pending ? 'Invited' : 'Active'} /> },
              { header: 'Last sign-in', cell: (member) => <Time value={member.last_signed_in_at} empty="Never" /> },
              { header: 'Member since', cell: (member) => <Time value={member.created_at} /> },
              ...(manages
                ? [
                    {
                      header: 'Actions',
                      cell: (member: TeamMember) =>
                        mayChange(member) || member.id === session.user_id ? (
                          <div className="actions">
                            <button type="button" className="secondary small" disabled={reset.isPending} onClick={() => reset.run(member.id)} aria-label={`New sign-in link for ${member.email}`}>
                              New link
                            </button>
                            {mayChange(member) && (
                              <ConfirmButton
                                label="Remove"
                                ariaLabel={`Remove ${member.email}`}
                                disabled={members.length <= 1 || (member.role === 'owner' && owners <= 1)}
                                title={`Remove ${member.email}?`}
                                confirmLabel="Remove from the team"
                                onConfirm={() => remove.runAsync(member)}
                              >
                                <p>{member.email} is signed out everywhere now and can’t sign in again unless invited.</p>
                              </ConfirmButton>
                            )}
                          </div>
                        ) : null,
                    },
                  ]
                : []),
            ]}
          />
        )}
        {manages && owners <= 1 && <p className="hint">The only owner can’t be removed or changed: make another member owner first.</p>}
      </Section>
    </>
  );
}
