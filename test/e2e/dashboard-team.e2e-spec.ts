import { DataSource } from 'typeorm';
import { controlClock } from '../support/entitlement-fixtures';
import { bearer, createTestApp, TEST_ADMIN_TOKEN, TestApp, TestTenant } from '../support/test-app';

const PASSWORD = 'correct horse battery';
const HOUR = 60 * 60 * 1000;

interface Session {
  cookie: string;
  csrf: string;
}

/** Settings → Team (DESIGN §11, issue 24 item 6): list, invite, reset links, removal; sessions end when they must. */
describe('dashboard team', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });
  afterAll(() => testApp.close());

  const uniqueEmail = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const tokenOf = (setupUrl: string) => new URL(setupUrl).hash.replace('#token=', '');
  const as = (session: Session) => ({ Cookie: session.cookie, 'X-CSRF-Token': session.csrf });

  async function signIn(email: string, password = PASSWORD): Promise<Session> {
    const response = await testApp.http.post('/dashboard/api/sign-in').send({ email, password }).expect(200);
    return { cookie: ([] as string[]).concat(response.headers['set-cookie'] ?? [])[0].split(';')[0], csrf: response.body.data.csrf_token };
  }

  /** A merchant with one user who has set a password, signed in. */
  async function firstUser(): Promise<{ tenant: TestTenant; email: string; session: Session }> {
    const tenant = await testApp.createTenant();
    const email = uniqueEmail('owner');
    const created = await testApp.http.post(`/admin/v1/merchants/${tenant.merchantId}/users`).set(bearer(TEST_ADMIN_TOKEN)).send({ email }).expect(201);
    await testApp.http.post('/dashboard/api/setup').send({ token: tokenOf(created.body.data.setup_url), password: PASSWORD }).expect(200);
    return { tenant, email, session: await signIn(email) };
  }

  it('invites a user with a one-time link shown to the inviter, lists the team with last sign-in and pending setup', async () => {
    const { session, email } = await firstUser();
    const inviteeEmail = uniqueEmail('Grace');
    const invited = await testApp.http.post('/dashboard/api/team/invitations').set(as(session)).send({ email: inviteeEmail }).expect(201);
    expect(invited.body.data).toEqual({
      user: { id: expect.stringMatching(/^user_/), email: inviteeEmail.toLowerCase(), created_at: expect.any(String), last_signed_in_at: null, setup_pending: true, role: 'viewer', test_only: false },
      setup_url: expect.stringMatching(/\/dashboard\/setup#token=[\w-]{20,}$/),
      setup_url_expires_at: expect.any(String),
    });
    expect(new Date(invited.body.data.setup_url_expires_at).getTime() - Date.now()).toBeGreaterThan(23 * HOUR);

    let team = (await testApp.http.get('/dashboard/api/team').set('Cookie', session.cookie).expect(200)).body.data;
    expect(team.map((member: { email: string; setup_pending: boolean; last_signed_in_at: string | null }) => [member.email, member.setup_pending, member.last_signed_in_at !== null])).toEqual([
      [email, false, true],
      [inviteeEmail.toLowerCase(), true, false],
    ]);

    await testApp.http.post('/dashboard/api/setup').send({ token: tokenOf(invited.body.data.setup_url), password: PASSWORD }).expect(200);
    // The link works once.
    expect((await testApp.http.post('/dashboard/api/setup').send({ token: tokenOf(invited.body.data.setup_url), password: PASSWORD }).expect(404)).body.error.code).toBe('SETUP_LINK_INVALID');
    const invitee = await signIn(inviteeEmail);
    team = (await testApp.http.get('/dashboard/api/team').set('Cookie', invitee.cookie).expect(200)).body.data;
    expect(team[1]).toMatchObject({ setup_pending: false, last_signed_in_at: expect.any(String) });
    const described = await testApp.http.get('/dashboard/api/session').set('Cookie', invitee.cookie).expect(200);
    expect(described.body.data.user_id).toBe(invited.body.data.user.id);
  });

  it('refuses to invite an email that is any dashboard user\'s already, and bad emails', async () => {
    const first = await firstUser();
    const second = await firstUser();
    const member = await testApp.http.post('/dashboard/api/team/invitations').set(as(first.session)).send({ email: first.email.toUpperCase() }).expect(409);
    expect(member.body.error).toMatchObject({ code: 'DASHBOARD_USER_EXISTS', param: 'email' });
    expect(member.body.error.message).toContain('reset link');
    const theirs = await testApp.http.post('/dashboard/api/team/invitations').set(as(first.session)).send({ email: second.email }).expect(409);
    expect(theirs.body.error.message).toContain("another merchant's");
    expect((await testApp.http.post('/dashboard/api/team/invitations').set(as(first.session)).send({ email: 'not an email' }).expect(400)).body.error.code).toBe('INVALID_PARAMETER');
    expect((await testApp.http.post('/dashboard/api/team/invitations').set(as(first.session)).send({}).expect(400)).body.error.code).toBe('MISSING_REQUIRED_FIELD');
    // The teams are apart: nobody of the other merchant is listed.
    const team = (await testApp.http.get('/dashboard/api/team').set('Cookie', first.session.cookie).expect(200)).body.data;
    expect(team.map((entry: { email: string }) => entry.email)).toEqual([first.email]);
  });

  it('removes a user: their sessions end at once; the last user stays (409); other merchants\' users are 404', async () => {
    const { session: owner, tenant } = await firstUser();
    const email = uniqueEmail('leaver');
    const invited = await testApp.http.post('/dashboard/api/team/invitations').set(as(owner)).send({ email }).expect(201);
    await testApp.http.post('/dashboard/api/setup').send({ token: tokenOf(invited.body.data.setup_url), password: PASSWORD }).expect(200);
    const leaver = await signIn(email);
    await testApp.http.get('/v1/products').set('Cookie', leaver.cookie).set('Eh-Mode', 'test').expect(200);

    const other = await firstUser();
    // Another merchant's user can't remove this one: it is nobody in their team.
    const foreign = await testApp.http.delete(`/dashboard/api/team/${invited.body.data.user.id}`).set(as(other.session)).expect(404);
    expect(foreign.body.error.code).toBe('DASHBOARD_USER_NOT_FOUND');
    expect((await testApp.http.delete('/dashboard/api/team/user_nobody').set(as(owner)).expect(404)).body.error.code).toBe('DASHBOARD_USER_NOT_FOUND');

    const removed = await testApp.http.delete(`/dashboard/api/team/${invited.body.data.user.id}`).set(as(owner)).expect(200);
    expect(removed.body.data).toEqual({ id: invited.body.data.user.id, deleted: true });
    expect((await testApp.http.get('/v1/products').set('Cookie', leaver.cookie).set('Eh-Mode', 'test').expect(401)).body.error.code).toBe('INVALID_SESSION');
    await testApp.http.get('/dashboard/api/session').set('Cookie', leaver.cookie).expect(401);
    expect((await testApp.http.post('/dashboard/api/sign-in').send({ email, password: PASSWORD }).expect(401)).body.error.code).toBe('INVALID_CREDENTIALS');

    // The owner is the last one now, whether they remove themself or are removed by anyone.
    const team = (await testApp.http.get('/dashboard/api/team').set('Cookie', owner.cookie).expect(200)).body.data;
    expect(team).toHaveLength(1);
    const last = await testApp.http.delete(`/dashboard/api/team/${team[0].id}`).set(as(owner)).expect(409);
    expect(last.body.error).toMatchObject({ code: 'LAST_DASHBOARD_USER', type: 'conflict_error' });
    await testApp.http.get('/dashboard/api/session').set('Cookie', owner.cookie).expect(200);
    expect((await testApp.http.get(`/admin/v1/merchants/${tenant.merchantId}`).set(bearer(TEST_ADMIN_TOKEN)).expect(200)).body.data.id).toBe(tenant.merchantId);
  });

  it('keeps one user when two remove each other at the same time', async () => {
    const { session: first } = await firstUser();
    const email = uniqueEmail('twin');
    // Two owners, so either may remove the other.
    const invited = await testApp.http.post('/dashboard/api/team/invitations').set(as(first)).send({ email, role: 'owner' }).expect(201);
    await testApp.http.post('/dashboard/api/setup').send({ token: tokenOf(invited.body.data.setup_url), password: PASSWORD }).expect(200);
    const second = await signIn(email);
    const team = (await testApp.http.get('/dashboard/api/team').set('Cookie', first.cookie).expect(200)).body.data as Array<{ id: string }>;
    const [a, b] = await Promise.all([
      testApp.http.delete(`/dashboard/api/team/${team[1].id}`).set(as(first)),
      testApp.http.delete(`/dashboard/api/team/${team[0].id}`).set(as(second)),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const remaining = await testApp.app.get(DataSource).query('SELECT count(*)::int AS n FROM dashboard_users WHERE id = ANY($1)', [team.map((member) => member.id)]);
    expect(remaining[0].n).toBe(1);
  });

  it('issues a reset link: setting the new password ends the user\'s other sessions, keeps the one that made it, and the old password stops working', async () => {
    const { session: owner, email } = await firstUser();
    const laptop = await signIn(email);
    const team = (await testApp.http.get('/dashboard/api/team').set('Cookie', owner.cookie).expect(200)).body.data;
    const reset = await testApp.http.post(`/dashboard/api/team/${team[0].id}/reset-link`).set(as(owner)).expect(201);
    expect(reset.body.data).toMatchObject({ user: { id: team[0].id, email, setup_pending: false }, setup_url: expect.stringContaining('/dashboard/setup#token=') });
    // Still signed in everywhere until the link is used.
    await testApp.http.get('/dashboard/api/session').set('Cookie', laptop.cookie).expect(200);

    const newPassword = 'an entirely new passphrase';
    await testApp.http.post('/dashboard/api/setup').set(as(owner)).send({ token: tokenOf(reset.body.data.setup_url), password: newPassword }).expect(200);
    await testApp.http.get('/dashboard/api/session').set('Cookie', laptop.cookie).expect(401);
    await testApp.http.get('/dashboard/api/session').set('Cookie', owner.cookie).expect(200);
    await testApp.http.post('/dashboard/api/sign-in').send({ email, password: PASSWORD }).expect(401);
    await signIn(email, newPassword);

    // Used without a session (another browser): every session of the user ends.
    const again = await testApp.http.post(`/dashboard/api/team/${team[0].id}/reset-link`).set(as(owner)).expect(201);
    await testApp.http.post('/dashboard/api/setup').send({ token: tokenOf(again.body.data.setup_url), password: PASSWORD }).expect(200);
    await testApp.http.get('/dashboard/api/session').set('Cookie', owner.cookie).expect(401);

    const outsider = await firstUser();
    expect((await testApp.http.post(`/dashboard/api/team/${team[0].id}/reset-link`).set(as(outsider.session)).expect(404)).body.error.code).toBe('DASHBOARD_USER_NOT_FOUND');
  });

  it('expires invitation links after 24 hours, and needs a session and its CSRF token', async () => {
    const { session } = await firstUser();
    const clock = controlClock(testApp);
    try {
      const invited = await testApp.http.post('/dashboard/api/team/invitations').set(as(session)).send({ email: uniqueEmail('late') }).expect(201);
      clock.advance(24 * HOUR + 1000);
      expect((await testApp.http.post('/dashboard/api/setup').send({ token: tokenOf(invited.body.data.setup_url), password: PASSWORD }).expect(404)).body.error.code).toBe('SETUP_LINK_INVALID');
    } finally {
      clock.release();
    }
    expect((await testApp.http.get('/dashboard/api/team').expect(401)).body.error.code).toBe('INVALID_SESSION');
    await testApp.http.post('/dashboard/api/team/invitations').set('Cookie', session.cookie).send({ email: uniqueEmail('nocsrf') }).expect(403);
    // An API key is no dashboard session.
    const tenant = await testApp.createTenant();
    await testApp.http.get('/dashboard/api/team').set(bearer(tenant.testKey)).expect(401);
  });
});
