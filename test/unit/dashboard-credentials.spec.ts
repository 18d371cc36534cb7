import { DashboardCookie } from '../../src/dashboard/dashboard-cookie';
import { hashPassword, verifyPassword } from '../../src/dashboard/password-hash';

describe('dashboard session cookie', () => {
  it('is httpOnly and SameSite=Lax, and Secure with the __Host- prefix under https', () => {
    expect(new DashboardCookie(false).serialize('abc')).toBe('eh_session=abc; Path=/; HttpOnly; SameSite=Lax');
    expect(new DashboardCookie(true).serialize('abc')).toBe('__Host-eh_session=abc; Path=/; HttpOnly; SameSite=Lax; Secure');
    expect(new DashboardCookie(true).cleared()).toContain('Max-Age=0');
  });

  it('reads only its own cookie, by exact name', () => {
    const cookie = new DashboardCookie(true);
    expect(cookie.tokenFrom({ cookie: 'other=1; __Host-eh_session=token-1; x=2' })).toBe('token-1');
    // A cookie without the prefix (plantable by a subdomain) is not the session under https.
    expect(cookie.tokenFrom({ cookie: 'eh_session=planted' })).toBeNull();
    expect(cookie.tokenFrom({})).toBeNull();
    expect(cookie.tokenFrom({ cookie: `__Host-eh_session=${'x'.repeat(200)}` })).toBeNull();
  });
});

describe('dashboard password hashes', () => {
  it('stores scrypt with its parameters and verifies only the right password', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
    expect(await hashPassword('correct horse battery')).not.toBe(stored);
    expect(await verifyPassword('anything', 'not-a-hash')).toBe(false);
  });
});
