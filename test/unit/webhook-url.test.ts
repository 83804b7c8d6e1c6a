import { checkWebhookUrl, classifyAddress, MAX_WEBHOOK_URL_LENGTH, type WebhookUrlOptions } from '../../functions/core/webhook-url';

const dns: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'internal.example.com': ['10.0.0.5'],
  'mixed.example.com': ['93.184.216.34', '192.168.1.10'],
  'rebind.example.com': ['127.0.0.1'],
  'metadata.example.com': ['169.254.169.254'],
  'v6private.example.com': ['fd12:3456::1'],
  'mapped.example.com': ['::ffff:10.1.2.3'],
};
const resolve = jest.fn(async (host: string) => {
  const found = dns[host];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return found;
});

const live: WebhookUrlOptions = { environment: 'live', allowLoopback: false, resolve };
const test: WebhookUrlOptions = { environment: 'test', allowLoopback: false, resolve };
const local: WebhookUrlOptions = { environment: 'test', allowLoopback: true, resolve };

beforeEach(() => resolve.mockClear());

describe('webhook endpoint URLs', () => {
  it('accept a public https host in either environment', async () => {
    expect(await checkWebhookUrl('https://hooks.example.com/fincore?x=1', live)).toEqual({ ok: true });
    expect(await checkWebhookUrl('https://hooks.example.com:8443/fincore', test)).toEqual({ ok: true });
    expect(resolve).toHaveBeenCalledWith('hooks.example.com');
  });

  it('require https for live endpoints but allow http in test', async () => {
    expect(await checkWebhookUrl('http://hooks.example.com/hook', live)).toEqual({ ok: false, reason: 'https_required' });
    expect(await checkWebhookUrl('http://hooks.example.com/hook', test)).toEqual({ ok: true });
  });

  it('refuse other schemes and unparseable input', async () => {
    for (const url of ['ftp://hooks.example.com/', 'file:///etc/passwd', 'gopher://hooks.example.com/', 'javascript:alert(1)']) {
      expect(await checkWebhookUrl(url, test)).toEqual({ ok: false, reason: 'unsupported_scheme' });
    }
    for (const url of ['', 'hooks.example.com/hook', 'https://', 'http://exa mple.com/']) {
      expect(await checkWebhookUrl(url, test)).toEqual({ ok: false, reason: 'invalid_url' });
    }
  });

  it('refuse credentials in the URL', async () => {
    expect(await checkWebhookUrl('https://user:pass@hooks.example.com/', live)).toEqual({ ok: false, reason: 'credentials_not_allowed' });
    expect(await checkWebhookUrl('https://user@hooks.example.com/', live)).toEqual({ ok: false, reason: 'credentials_not_allowed' });
  });

  it('refuse URLs over 1000 characters', async () => {
    const base = 'https://hooks.example.com/';
    expect(await checkWebhookUrl(base + 'a'.repeat(MAX_WEBHOOK_URL_LENGTH - base.length), live)).toEqual({ ok: true });
    expect(await checkWebhookUrl(base + 'a'.repeat(MAX_WEBHOOK_URL_LENGTH - base.length + 1), live)).toEqual({ ok: false, reason: 'too_long' });
  });

  it('refuse hosts that resolve to private, loopback or link-local addresses', async () => {
    expect(await checkWebhookUrl('https://internal.example.com/', live)).toEqual({ ok: false, reason: 'private_address' });
    expect(await checkWebhookUrl('https://mixed.example.com/', live)).toEqual({ ok: false, reason: 'private_address' });
    expect(await checkWebhookUrl('https://rebind.example.com/', live)).toEqual({ ok: false, reason: 'loopback_address' });
    expect(await checkWebhookUrl('https://metadata.example.com/', live)).toEqual({ ok: false, reason: 'link_local_address' });
    expect(await checkWebhookUrl('https://v6private.example.com/', live)).toEqual({ ok: false, reason: 'private_address' });
    expect(await checkWebhookUrl('https://mapped.example.com/', live)).toEqual({ ok: false, reason: 'private_address' });
  });

  it('refuse hosts that do not resolve', async () => {
    expect(await checkWebhookUrl('https://nowhere.example.com/', live)).toEqual({ ok: false, reason: 'unresolvable_host' });
    const empty = { ...live, resolve: async () => [] };
    expect(await checkWebhookUrl('https://hooks.example.com/', empty)).toEqual({ ok: false, reason: 'unresolvable_host' });
  });

  it('check IP literals without DNS, in every notation the URL parser accepts', async () => {
    const cases: Array<[string, string]> = [
      ['https://10.1.2.3/', 'private_address'],
      ['https://172.31.255.255/', 'private_address'],
      ['https://192.168.0.1/', 'private_address'],
      ['https://100.64.0.1/', 'private_address'],
      ['https://127.0.0.1/', 'loopback_address'],
      ['https://127.1/', 'loopback_address'],
      ['https://2130706433/', 'loopback_address'],
      ['https://0x7f.0.0.1/', 'loopback_address'],
      ['https://169.254.169.254/latest/meta-data/', 'link_local_address'],
      ['https://0.0.0.0/', 'unspecified_address'],
      ['https://224.0.0.1/', 'multicast_address'],
      ['https://255.255.255.255/', 'reserved_address'],
      ['https://[::1]/', 'loopback_address'],
      ['https://[::]/', 'unspecified_address'],
      ['https://[fc00::1]/', 'private_address'],
      ['https://[fd00:ec2::254]/', 'private_address'],
      ['https://[fe80::1]/', 'link_local_address'],
      ['https://[ff02::1]/', 'multicast_address'],
      ['https://[::ffff:127.0.0.1]/', 'loopback_address'],
      ['https://[::ffff:7f00:1]/', 'loopback_address'],
      ['https://[::ffff:10.0.0.1]/', 'private_address'],
      ['https://[::ffff:169.254.169.254]/', 'link_local_address'],
      ['https://[::127.0.0.1]/', 'loopback_address'],
      ['https://[64:ff9b::192.168.0.1]/', 'private_address'],
      ['https://[2002:c0a8:0001::1]/', 'private_address'],
    ];
    for (const [url, reason] of cases) {
      expect([url, await checkWebhookUrl(url, test)]).toEqual([url, { ok: false, reason }]);
    }
    expect(await checkWebhookUrl('https://93.184.216.34/hook', live)).toEqual({ ok: true });
    expect(await checkWebhookUrl('https://[2606:4700::1111]/hook', live)).toEqual({ ok: true });
    expect(await checkWebhookUrl('https://172.32.0.1/', live)).toEqual({ ok: true });
    expect(resolve).not.toHaveBeenCalled();
  });

  it('allow loopback only with allowLoopback, and only for the test environment', async () => {
    for (const url of ['http://localhost:3000/hook', 'http://127.0.0.1:3000/hook', 'http://[::1]:3000/hook', 'http://rebind.example.com/']) {
      expect([url, await checkWebhookUrl(url, local)]).toEqual([url, { ok: true }]);
      expect([url, await checkWebhookUrl(url, test)]).toEqual([url, { ok: false, reason: 'loopback_address' }]);
    }
    expect(await checkWebhookUrl('https://localhost/hook', { ...local, environment: 'live' })).toEqual({ ok: false, reason: 'loopback_address' });
    // allowLoopback does not open private or link-local ranges
    expect(await checkWebhookUrl('http://10.0.0.1/', local)).toEqual({ ok: false, reason: 'private_address' });
    expect(await checkWebhookUrl('http://169.254.169.254/', local)).toEqual({ ok: false, reason: 'link_local_address' });
  });

  it('treat localhost names as loopback whatever DNS says', async () => {
    expect(await checkWebhookUrl('http://app.localhost/', test)).toEqual({ ok: false, reason: 'loopback_address' });
    expect(await checkWebhookUrl('http://localhost./', test)).toEqual({ ok: false, reason: 'loopback_address' });
    expect(resolve).not.toHaveBeenCalled();
  });
});

describe('address classification', () => {
  it('names each range', () => {
    expect(classifyAddress('8.8.8.8')).toBe('public');
    expect(classifyAddress('100.63.255.255')).toBe('public');
    expect(classifyAddress('100.128.0.0')).toBe('public');
    expect(classifyAddress('100.127.255.255')).toBe('private');
    expect(classifyAddress('172.15.0.1')).toBe('public');
    expect(classifyAddress('172.16.0.1')).toBe('private');
    expect(classifyAddress('0.1.2.3')).toBe('reserved');
    expect(classifyAddress('239.255.255.250')).toBe('multicast');
    expect(classifyAddress('fbff::1')).toBe('public');
    expect(classifyAddress('fe80::1%eth0')).toBe('link_local');
    expect(classifyAddress('[::1]')).toBe('loopback');
    expect(classifyAddress('::ffff:8.8.8.8')).toBe('public');
    expect(classifyAddress('::ffff:0:127.0.0.1')).toBe('loopback');
    expect(classifyAddress('not-an-ip')).toBe('reserved');
  });
});
