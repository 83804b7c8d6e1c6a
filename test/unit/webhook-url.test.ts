import {
  checkWebhookUrl,
  classifyAddress,
  disallowedUrlCharacter,
  MAX_WEBHOOK_URL_LENGTH,
  normalizeWebhookUrl,
  resolveWebhookTarget,
  type AddressClass,
  type WebhookUrlOptions,
} from '../../functions/core/webhook-url';

const dns: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'internal.example.com': ['10.0.0.5'],
  'mixed.example.com': ['93.184.216.34', '192.168.1.10'],
  'rebind.example.com': ['127.0.0.1'],
  'metadata.example.com': ['169.254.169.254'],
  'v6private.example.com': ['fd12:3456::1'],
  'mapped.example.com': ['::ffff:10.1.2.3'],
  'nat64-local.example.com': ['2606:2800:220:1:248:1893:25c8:1946', '64:ff9b:1::a00:5'],
  'teredo.example.com': ['2001:0:4136:e378:8000:63bf:80ff:fffe'],
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
    expect(classifyAddress('fbff::1')).toBe('reserved'); // outside global unicast 2000::/3
    expect(classifyAddress('2606:4700::1111')).toBe('public');
    expect(classifyAddress('fe80::1%eth0')).toBe('link_local');
    expect(classifyAddress('[::1]')).toBe('loopback');
    expect(classifyAddress('::ffff:8.8.8.8')).toBe('public');
    expect(classifyAddress('::ffff:0:127.0.0.1')).toBe('loopback');
    expect(classifyAddress('not-an-ip')).toBe('reserved');
  });
});

// Every IPv6 form that can lead to a private or loopback destination, in the spellings a resolver or
// a URL can produce: embedded IPv4 forms are judged by the IPv4 address they carry.
const V6_CASES: Array<[address: string, expected: AddressClass]> = [
  // loopback and unspecified, compressed or not
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['0000:0000:0000:0000:0000:0000:0000:0001', 'loopback'],
  ['[::1]', 'loopback'],
  ['::', 'unspecified'],
  ['0:0:0:0:0:0:0:0', 'unspecified'],
  // IPv4-mapped ::ffff:0:0/96
  ['::ffff:127.0.0.1', 'loopback'],
  ['::FFFF:7F00:1', 'loopback'],
  ['0:0:0:0:0:ffff:a9fe:a9fe', 'link_local'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:8.8.8.8', 'public'],
  // IPv4-compatible ::/96
  ['::127.0.0.1', 'loopback'],
  ['::a00:1', 'private'],
  ['::8.8.8.8', 'public'],
  // IPv4-translated ::ffff:0:0:0/96
  ['::ffff:0:127.0.0.1', 'loopback'],
  ['::ffff:0:c0a8:1', 'private'],
  ['::ffff:0:8.8.8.8', 'public'],
  // NAT64 well-known prefix 64:ff9b::/96
  ['64:ff9b::127.0.0.1', 'loopback'],
  ['64:FF9B::10.1.2.3', 'private'],
  ['64:ff9b::a9fe:a9fe', 'link_local'],
  ['64:ff9b::8.8.8.8', 'public'],
  // NAT64 local-use prefix 64:ff9b:1::/48: not globally reachable, whatever it embeds
  ['64:ff9b:1::a00:1', 'private'],
  ['64:ff9b:1:7f00:1::', 'private'],
  ['64:ff9b:1::8.8.8.8', 'private'],
  ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff', 'private'],
  ['64:ff9b:2::1', 'reserved'],
  // 6to4 2002::/16: the IPv4 address is bits 16-47
  ['2002:7f00:1::', 'loopback'],
  ['2002:c0a8:101::1', 'private'],
  ['2002:A9FE:A9FE::1', 'link_local'],
  ['2002:808:808::1', 'public'],
  // Teredo 2001:0::/32: server IPv4 in bits 32-63, client IPv4 inverted in the last 32 bits
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'], // client 127.0.0.1
  ['2001::4136:e378:0:0:f5ff:fffe', 'private'], // client 10.0.0.1
  ['2001:0:4136:e378:8000:63bf:5601:5601', 'link_local'], // client 169.254.169.254 (~a9fe:a9fe)
  ['2001:0:a00:1:8000:63bf:f7f7:f7f7', 'private'], // server 10.0.0.1
  ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'public'], // server 65.54.227.120, client 8.8.8.8
  // unique local fc00::/7, link-local fe80::/10, site-local fec0::/10, multicast ff00::/8
  ['fc00::1', 'private'],
  ['FDFF:FFFF::1', 'private'],
  ['fe80::1', 'link_local'],
  ['febf:ffff::1', 'link_local'],
  ['fe80::1%eth0', 'link_local'],
  ['[fe80::1%25eth0]', 'link_local'],
  ['fec0::1', 'private'],
  ['feff::1', 'private'],
  ['ff02::1', 'multicast'],
  ['FF0E::1', 'multicast'],
  // documentation, benchmarking, ORCHID, discard, and space outside global unicast
  ['2001:db8::1', 'reserved'],
  ['2001:DB8:ffff::1', 'reserved'],
  ['3fff::1', 'reserved'],
  ['2001:2::1', 'reserved'],
  ['2001:10::1', 'reserved'],
  ['100::1', 'reserved'],
  ['4000::1', 'reserved'],
  ['5f00::1', 'reserved'],
  // global unicast
  ['2606:4700::1111', 'public'],
  ['2606:4700:0:0:0:0:0:1111', 'public'],
  ['2001:4860:4860::8888', 'public'],
];

describe('IPv6 destinations', () => {
  it.each(V6_CASES)('classify %s as %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it('refuse every non-public IPv6 form written as a URL host, and accept the public ones', async () => {
    for (const [address, expected] of V6_CASES) {
      if (address.includes('%') || address.startsWith('[')) continue; // zone ids are not valid in URLs
      const url = `https://[${address}]/hook`;
      const result = await checkWebhookUrl(url, live);
      const want = expected === 'public' ? { ok: true } : { ok: false, reason: `${expected}_address` };
      expect([url, result]).toEqual([url, want]);
    }
    expect(resolve).not.toHaveBeenCalled();
  });

  it('refuse a host when any of its DNS answers is an IPv6 form leading to a private address', async () => {
    expect(await checkWebhookUrl('https://nat64-local.example.com/', live)).toEqual({ ok: false, reason: 'private_address' });
    expect(await checkWebhookUrl('https://teredo.example.com/', live)).toEqual({ ok: false, reason: 'loopback_address' });
  });
});

describe('characters a webhook URL may not contain', () => {
  const refused = [
    ...Array.from({ length: 0x20 }, (_, i) => i),
    0x7f,
    0x80,
    0x85,
    0x9f,
    0xad,
    0x61c,
    0x200b,
    0x200c,
    0x200d,
    0x200e,
    0x200f,
    0x2028,
    0x2029,
    0x202a,
    0x202b,
    0x202c,
    0x202d,
    0x202e,
    0x2060,
    0x2066,
    0x2067,
    0x2068,
    0x2069,
    0xfeff,
  ].map((code) => String.fromCharCode(code));

  it('refuse control, bidirectional-formatting and zero-width characters anywhere in the URL', async () => {
    for (const c of refused) {
      for (const url of [`https://hooks.example.com/a${c}b`, `https://hoo${c}ks.example.com/`, `${c}https://hooks.example.com/`, `https://hooks.example.com/?q=${c}`]) {
        expect([url, await checkWebhookUrl(url, live)]).toEqual([url, { ok: false, reason: 'control_characters' }]);
      }
    }
    expect(resolve).not.toHaveBeenCalled();
  });

  it('name the first such character and where it is', () => {
    expect(disallowedUrlCharacter('https://hooks.example.com/\u202egnp.exe')).toEqual({ codePoint: 'U+202E', index: 26 });
    expect(disallowedUrlCharacter('https://a.example/\u0000')).toEqual({ codePoint: 'U+0000', index: 18 });
    expect(disallowedUrlCharacter('https://hooks.example.com/caf\u00e9?x=\u4e2d')).toBeNull();
  });

  it('accept other non-ASCII characters', async () => {
    expect(await checkWebhookUrl('https://hooks.example.com/caf\u00e9', live)).toEqual({ ok: true });
  });
});

describe('checked targets', () => {
  it('return the addresses that were checked, for the connection to use', async () => {
    const target = await resolveWebhookTarget('https://hooks.example.com/fincore', live);
    expect(target).toMatchObject({ ok: true, addresses: dns['hooks.example.com'] });
    expect(target.ok && target.url.hostname).toBe('hooks.example.com');
    expect(await resolveWebhookTarget('http://localhost:3000/h', local)).toMatchObject({ ok: true, addresses: ['127.0.0.1'] });
    expect(await resolveWebhookTarget('https://internal.example.com/', live)).toEqual({ ok: false, reason: 'private_address' });
  });

  it('normalize URLs the way the URL parser serialises them', () => {
    expect(normalizeWebhookUrl('HTTPS://Hooks.Example.COM:443/a?b=1')).toBe('https://hooks.example.com/a?b=1');
    expect(normalizeWebhookUrl('http://[0:0:0:0:0:0:0:1]:80/')).toBe('http://[::1]/');
    expect(normalizeWebhookUrl('https://hooks.example.com/A')).not.toBe(normalizeWebhookUrl('https://hooks.example.com/a'));
  });
});
