import { checkWebhookUrlSyntax, isForbiddenAddress, UnsafeWebhookUrlError } from '../../src/webhooks/webhook-url-guard';

jest.mock('node:dns', () => ({
  lookup: (hostname: string, _options: unknown, callback: (error: Error | null, addresses: { address: string; family: number }[]) => void) => {
    const answers: Record<string, { address: string; family: number }[]> = {
      'public.test': [{ address: '93.184.216.34', family: 4 }],
      'rebind.test': [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.8', family: 4 },
      ],
      'mapped.test': [{ address: '::ffff:169.254.169.254', family: 6 }],
    };
    callback(null, answers[hostname] ?? []);
  },
}));
jest.mock('node:dns/promises', () => ({
  lookup: async (hostname: string) => {
    if (hostname === 'internal.test') return [{ address: '2001:db8::1', family: 6 }, { address: '192.168.0.10', family: 4 }];
    if (hostname === 'public.test') return [{ address: '93.184.216.34', family: 4 }];
    throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  },
}));

// Imported after the mocks so both modules see them.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { checkResolvedHost } = require('../../src/webhooks/webhook-url-guard') as typeof import('../../src/webhooks/webhook-url-guard');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { guardedLookup } = require('../../src/webhooks/webhook-sender') as typeof import('../../src/webhooks/webhook-sender');

describe('webhook URL guard', () => {
  it.each([
    '127.0.0.1', '127.255.255.254', '10.1.2.3', '172.31.255.255', '192.168.0.1', '100.64.0.1', '169.254.169.254', '0.0.0.0',
    '::1', '::', 'fe80::1', 'fc00::1', 'fd00:ec2::254', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '64:ff9b::a00:1', '2001:db8::1', '224.0.0.1', 'not-an-ip',
  ])('forbids %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });

  it('normalises numeric IPv4 forms through the URL parser before checking', () => {
    for (const url of ['http://2130706433/', 'http://0x7f000001/', 'http://0177.0.0.1/', 'http://127.1/', 'http://[::ffff:127.0.0.1]/']) {
      expect(() => checkWebhookUrlSyntax(url, 'test', false)).toThrow(UnsafeWebhookUrlError);
      expect(() => checkWebhookUrlSyntax(url, 'test', true)).not.toThrow();
    }
    expect(() => checkWebhookUrlSyntax('http://8.8.8.8/', 'live', true)).toThrow('https');
  });

  it('refuses names that resolve to any forbidden address at registration; unresolvable names wait for the send-time check', async () => {
    await expect(checkResolvedHost('internal.test')).rejects.toThrow(UnsafeWebhookUrlError);
    await expect(checkResolvedHost('public.test')).resolves.toBeUndefined();
    await expect(checkResolvedHost('nowhere.test')).resolves.toBeUndefined();
  });

  it('refuses the connection at send time when any resolved address is forbidden', async () => {
    const resolve = (hostname: string, all: boolean) =>
      new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((done) =>
        guardedLookup(hostname, { all }, (error, address) => done({ error, address })),
      );
    expect((await resolve('public.test', false)).address).toBe('93.184.216.34');
    expect((await resolve('public.test', true)).address).toEqual([{ address: '93.184.216.34', family: 4 }]);
    const rebind = await resolve('rebind.test', true);
    expect(rebind.error?.code).toBe('EFORBIDDENADDRESS');
    expect((await resolve('mapped.test', false)).error?.message).toContain('forbidden');
  });
});
