import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { dashboardApi, type SetupLink, type TeamMember } from '../../api/dashboard';
import { useWrite } from '../../lib/write';
import { useSession, useSignOut } from '../../shell/session';
import { Badge } from '../../ui/badge';
import { ConfirmButton } from '../../ui/confirm';
import { Secret } from '../../ui/copy';
import { FormError, SubmitButton, TextField, textOf, useFormErrors } from '../../ui/fields';
import { PageHeader, Section } from '../../ui/page';
import { Empty, ErrorMessage, Loading } from '../../ui/states';
import { Table } from '../../ui/table';
import { Time } from '../../ui/time';

/** The people who can sign in to this merchant's dashboard (DESIGN §11 Team). */
export function TeamPage() {
  const session = useSession();
  const signOut = useSignOut();
  const team = useQuery({ queryKey: ['team'], queryFn: dashboardApi.team });
  const [link, setLink] = useState<{ kind: 'invite' | 'reset'; value: SetupLink } | null>(null);
  const invite = useWrite({
    mutationFn: (email: string, key: string) => dashboardApi.invite(email, key),
    onSuccess: (created) => {
      setLink({ kind: 'invite', value: created });
      void team.refetch();
    },
  });
  const reset = useWrite({
    mutationFn: (userId: string, key: string) => dashboardApi.resetLink(userId, key),
    onSuccess: (created) => setLink({ kind: 'reset', value: created }),
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
    const email = textOf(new FormData(form), 'email');
    if (!inviteErrors.accept(/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? {} : { email: 'Enter an email address, like ada@example.com.' })) return;
    invite.runAsync(email).then(() => form.reset(), () => undefined);
  };
  const members = team.data ?? [];
  return (
    <>
      <PageHeader title="Team" description="Everyone here can do everything in the dashboard, in both modes." />
      <Section title="Invite a teammate">
        <form className="inline-form" onSubmit={submit} aria-label="Invite a teammate" noValidate>
          <TextField label="Email" name="email" type="email" autoComplete="off" required error={inviteErrors.fields.email} />
          <SubmitButton pending={invite.isPending} pendingLabel="Inviting…">
            Invite
          </SubmitButton>
        </form>
        <FormError message={inviteErrors.form} />
        {link && (
          <div role="status" className="notice">
            <p>
              {link.kind === 'invite' ? 'Send this link to' : 'Password reset link for'} <strong>{link.value.user.email}</strong>. It works once, until <Time value={link.value.setup_url_expires_at} />; nobody else
              is sent it.
            </p>
            <Secret value={link.value.setup_url} what="the setup link" testId="setup-link" />
          </div>
        )}
      </Section>
      <Section title="Members">
        {team.isPending && <Loading what="the team" />}
        <ErrorMessage error={team.error ?? reset.error ?? remove.error} />
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
                    {member.email} {member.id === session.user_id || member.email === session.email ? <small className="muted">(you)</small> : null}
                  </>
                ),
              },
              { header: 'Status', cell: (member) => <Badge status={member.setup_pending ? 'pending' : 'active'} label={member.setup_pending ? 'Invited' : 'Active'} /> },
              { header: 'Last sign-in', cell: (member) => <Time value={member.last_signed_in_at} empty="Never" /> },
              { header: 'Member since', cell: (member) => <Time value={member.created_at} /> },
              {
                header: 'Actions',
                cell: (member) => (
                  <div className="actions">
                    <button type="button" className="secondary small" disabled={reset.isPending} onClick={() => reset.run(member.id)} aria-label={`New sign-in link for ${member.email}`}>
                      New link
                    </button>
                    <ConfirmButton
                      label="Remove"
                      ariaLabel={`Remove ${member.email}`}
                      disabled={members.length <= 1}
                      title={`Remove ${member.email}?`}
                      confirmLabel="Remove from the team"
                      onConfirm={() => remove.runAsync(member)}
                    >
                      <p>{member.email} is signed out everywhere now and can’t sign in again unless invited.</p>
                    </ConfirmButton>
                  </div>
                ),
              },
            ]}
          />
        )}
        {members.length === 1 && <p className="hint">The last member can’t be removed.</p>}
      </Section>
    </>
  );
}
