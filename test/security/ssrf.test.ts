// Webhook endpoint URLs as an attacker writes them, through the HTTP API with a LIVE key (live
// endpoints must be public https URLs; the local stack's loopback allowance is for test keys only).
// Every form that reaches a private, loopback, link-local, CGNAT, reserved or non-https destination,
// however the address is spelled, is refused with a 4xx envelope and nothing is stored.
import { makeKey, startTestStack, type TestStack } from '../support/stack';
import { envelopeProblems, quiesce, tableFingerprint } from './harness';

let stack: TestStack;
const liveKey = makeKey('live');
/** A public address literal (no DNS): the control that live endpoints can be registered at all. */
const PUBLIC_URL = 'https://93.184.216.34/fincore-hook';

const listLive = async () => (await stack.call('/v1/webhooks/endpoints/list', { key: liveKey, body: {} })).json.endpoints as { url: string; endpoint_id: string }[];

beforeAll(async () => {
  stack = await startTestStack([{ application: 'Acme', plan: 'enterprise', keys: [liveKey] }]);
});
afterAll(() => stack.stop());
// A URL wrongly accepted by one check must not fail the next ones too.
afterEach(async () => {
  for (const endpoint of await listLive()) {
    await stack.call('/v1/webhooks/endpoints/delete', { key: liveKey, body: { endpoint_id: endpoint.endpoint_id } });
  }
});

const HOSTILE_URLS: Record<string, string[]> = {
  'IPv4 loopback, every notation': [
    'https://127.0.0.1/',
    'https://127.1/',
    'https://127.0.1/',
    'https://2130706433/',
    'https://017700000001/',
    'https://0x7f000001/',
    'https://0x7f.0.0.1/',
    'https://0177.0.0.01/',
    'https://0x7F.1/',
    'https://127.255.255.254/',
    'https://127.0.0.1:443/',
    'HTTPS://127.0.0.1/',
  ],
  'IPv4 unspecified and "this network"': ['https://0/', 'https://0.0.0.0/', 'https://0x0/', 'https://0.1.2.3/'],
  'IPv4 private (RFC 1918), every notation': [
    'https://10.0.0.1/',
    'https://10.1/',
    'https://012.0.0.1/',
    'https://0xa000001/',
    'https://167772161/',
    'https://172.16.0.1/',
    'https://172.31.255.255/',
    'https://0xac.0x10.0.1/',
    'https://192.168.1.1/',
    'https://0xc0a80101/',
    'https://3232235777/',
    'https://0300.0250.1.1/',
  ],
  'IPv4 link-local and the metadata service': [
    'https://169.254.169.254/',
    'https://169.254.169.254/latest/meta-data/',
    'https://2852039166/',
    'https://0xa9fea9fe/',
    'https://0251.0376.0251.0376/',
    'https://169.254.43518/',
    'https://0xa9.0xfe.0xa9.0xfe/',
  ],
  'IPv4 CGNAT shared space': ['https://100.64.0.1/', 'https://100.127.255.254/', 'https://0x64400001/'],
  'IPv4 reserved, multicast and broadcast': ['https://192.0.0.1/', 'https://198.18.0.1/', 'https://224.0.0.1/', 'https://239.255.255.250/', 'https://255.255.255.255/', 'https://240.0.0.1/'],
  'IPv6 loopback and unspecified': ['https://[::1]/', 'https://[0:0:0:0:0:0:0:1]/', 'https://[0000::0001]/', 'https://[::]/'],
  'IPv4-mapped and IPv4-compatible IPv6': [
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:7f00:1]/',
    'https://[::ffff:169.254.169.254]/',
    'https://[::ffff:a9fe:a9fe]/',
    'https://[::ffff:10.0.0.1]/',
    'https://[::127.0.0.1]/',
    'https://[::7f00:1]/',
    'https://[::ffff:0:127.0.0.1]/',
  ],
  'NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48)': [
    'https://[64:ff9b::127.0.0.1]/',
    'https://[64:ff9b::7f00:1]/',
    'https://[64:ff9b::a9fe:a9fe]/',
    'https://[64:ff9b::10.0.0.1]/',
    'https://[64:ff9b:1::a00:1]/',
    'https://[64:ff9b:1::7f00:1]/',
    'https://[64:ff9b:1:ffff::a9fe:a9fe]/',
  ],
  '6to4 (2002::/16) embedding a private address': ['https://[2002:7f00:1::]/', 'https://[2002:a9fe:a9fe::1]/', 'https://[2002:a00:1::1]/', 'https://[2002:c0a8:101::1]/'],
  // Teredo carries the server's IPv4 address in bits 32-63 and the client's, bit-inverted, in the
  // last 32 bits (127.0.0.1 is 80ff:fffe): either one internal makes the address internal.
  'Teredo (2001::/32) embedding an internal address': [
    'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
    'https://[2001::80ff:fffe]/',
    'https://[2001:0:a00:1:0:59d:a0e5:ba1]/',
    'https://[2001:0:a9fe:a9fe:0:59d:a0e5:ba1]/',
    'https://[2001:0:4136:e378:8000:63bf:5601:5601]/',
  ],
  'IPv6 unique-local, link-local, site-local and multicast': [
    'https://[fc00::1]/',
    'https://[fd00::1]/',
    'https://[fd00:ec2::254]/',
    'https://[fe80::1]/',
    'https://[fe80::1%25eth0]/',
    'https://[febf:ffff::1]/',
    'https://[fec0::1]/',
    'https://[ff02::1]/',
  ],
  'localhost names and trailing dots': [
    'https://localhost/',
    'https://LOCALHOST/',
    'https://localhost./',
    'https://foo.localhost/',
    'https://a.b.localhost./',
    'https://localhost:8443/hook',
    'https://127.0.0.1./',
    'https://[::1]./',
    'https://0x7f000001./',
  ],
  'userinfo and parser-confusion tricks': [
    'https://public.example@127.0.0.1/',
    'https://93.184.216.34@127.0.0.1/',
    'https://user:pass@93.184.216.34/',
    'https://93.184.216.34:443@169.254.169.254/',
    'https://127.0.0.1#@93.184.216.34/',
    'https://127.0.0.1\\@93.184.216.34/',
    'https://127.0.0.1%2f@93.184.216.34/',
    'https://93.184.216.34%40127.0.0.1/',
    'https:/\\127.0.0.1/',
    'https:127.0.0.1/',
    '//127.0.0.1/',
  ],
  'non-https schemes': [
    'http://93.184.216.34/hook',
    'ftp://93.184.216.34/',
    'file:///etc/passwd',
    'gopher://127.0.0.1:25/_HELO',
    'dict://127.0.0.1:11211/',
    'javascript:alert(1)',
    'data:text/plain,hello',
    'ws://93.184.216.34/',
    'wss://93.184.216.34/',
    'ldap://127.0.0.1/',
  ],
  'control characters and bidi overrides': [
    'https://127.0.0.1\t/',
    'https://127.0.\n0.1/',
    'https://93.184.216.34/hook\u0000',
    'https://93.184.216.34/ho\u0007ok',
    'https://93.184.216.34/\u202ekoob',
    'https://93.184.216.34/hook\u2066x\u2069',
    'https://\u202e93.184.216.34/',
    'https://93.184.216.34\u0000.example/',
    'https://exa\u0000mple.com/',
    ' https://127.0.0.1/',
    'https://127.0.0.1/\r\nX-Injected: 1',
  ],
  // No network here: a name that needs DNS must fail closed. With network these resolve to
  // loopback or metadata addresses, so they are refused either way.
  'DNS names that need resolution': [
    'https://localtest.me/',
    'https://127.0.0.1.nip.io/',
    'https://169.254.169.254.nip.io/',
    'https://metadata.google.internal/',
    'https://hooks.example.invalid/',
    'https://xn--80ak6aa92e.com/',
  ],
};

describe('webhook URLs that reach an internal destination, through the API with a live key', () => {
  it('registers a public https address literal (the control: refusals below are about the URL)', async () => {
    const res = await stack.call('/v1/webhooks/endpoints/create', { key: liveKey, body: { url: PUBLIC_URL } });
    expect(res.status).toBe(200);
    const [endpoint] = await listLive();
    expect(endpoint.url).toBe(PUBLIC_URL);
    const deleted = await stack.call('/v1/webhooks/endpoints/delete', { key: liveKey, body: { endpoint_id: endpoint.endpoint_id } });
    expect(deleted.status).toBe(200);
    expect(await listLive()).toEqual([]);
  });

  it.each(Object.entries(HOSTILE_URLS))('%s: refused with a 4xx envelope, nothing stored', async (_form, urls) => {
    await quiesce(stack);
    const before = await tableFingerprint(stack);
    const accepted: string[] = [];
    for (const url of urls) {
      const res = await stack.call('/v1/webhooks/endpoints/create', { key: liveKey, body: { url } });
      const problems = envelopeProblems(res);
      if (problems.length) accepted.push(`${JSON.stringify(url)} -> ${res.status} ${problems.join('; ')}`);
    }
    expect(accepted).toEqual([]);
    expect(await listLive()).toEqual([]);
    expect(await tableFingerprint(stack)).toBe(before);
  });
});
