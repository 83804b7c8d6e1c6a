// {base_url} as openapi.json, llms.txt and the Link flow advertise it: never taken from a request
// header unless it is a plain http(s) scheme and a well-formed host[:port].
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { baseUrlOf } from '../../functions/platform/operation';
import type { Deps, RuntimeConfig } from '../../functions/platform/runtime';

function depsFor(config: Partial<RuntimeConfig>): Deps {
  return { config: { tableName: 't', stage: 'local', region: 'us-east-1', ...config } } as Deps;
}

function eventWith(headers: Record<string, string>, requestContext: { domainName?: string; stage?: string } = {}): APIGatewayProxyEvent {
  return { headers, requestContext: { stage: 'local', ...requestContext } } as unknown as APIGatewayProxyEvent;
}

describe('baseUrlOf', () => {
  it('uses the configured base URL whatever the request says', () => {
    const deps = depsFor({ baseUrl: 'https://api.fincore.example/', stage: 'production' });
    expect(baseUrlOf(eventWith({ Host: 'evil.example', 'X-Forwarded-Proto': 'javascript' }, { domainName: 'evil.example' }), deps)).toBe('https://api.fincore.example');
  });

  it('refuses a forwarded scheme other than http or https', () => {
    const local = depsFor({ stage: 'local' });
    for (const proto of ['javascript', 'JAVASCRIPT', 'data', 'https:', 'http://x', 'ftp', ' ']) {
      expect(baseUrlOf(eventWith({ Host: 'localhost:4010', 'X-Forwarded-Proto': proto }, { domainName: 'localhost:4010' }), local)).toBe('http://localhost:4010');
    }
    expect(baseUrlOf(eventWith({ host: 'localhost:4010', 'x-forwarded-proto': 'HTTPS' }, { domainName: 'localhost:4010' }), local)).toBe('https://localhost:4010');
  });

  it('only ever advertises https outside the local stage', () => {
    const sandbox = depsFor({ stage: 'sandbox' });
    expect(baseUrlOf(eventWith({ 'X-Forwarded-Proto': 'http' }, { domainName: 'api.example.com' }), sandbox)).toBe('https://api.example.com');
    expect(baseUrlOf(eventWith({}, { domainName: 'abc123.execute-api.us-east-1.amazonaws.com', stage: 'sandbox' }), sandbox)).toBe(
      'https://abc123.execute-api.us-east-1.amazonaws.com/sandbox',
    );
  });

  it.each([
    ['userinfo', 'user:pw@evil.example'],
    ['a path', 'evil.example/phish'],
    ['whitespace', 'evil.example foo'],
    ['a scheme', 'javascript://evil.example'],
    ['a quote', 'evil.example"><script>'],
    ['a port out of range', 'localhost:99999'],
    ['a newline', 'evil.example\nX: y'],
  ])('falls back to a safe default for a host with %s', (_label, host) => {
    const url = baseUrlOf(eventWith({ Host: host }, { domainName: host }), depsFor({ stage: 'local' }));
    expect(url).toBe('http://localhost');
  });

  it('keeps a well-formed host with its port, and bracketed IPv6', () => {
    const local = depsFor({ stage: 'local' });
    expect(baseUrlOf(eventWith({}, { domainName: 'LocalHost:4010' }), local)).toBe('http://localhost:4010');
    expect(baseUrlOf(eventWith({}, { domainName: '[::1]:4010' }), local)).toBe('http://[::1]:4010');
    expect(baseUrlOf(eventWith({ Host: '127.0.0.1:8080' }), local)).toBe('http://127.0.0.1:8080');
  });

  it('never puts an unsafe stage name in the path', () => {
    const url = baseUrlOf(eventWith({}, { domainName: 'abc.execute-api.us-east-1.amazonaws.com', stage: '../x' }), depsFor({ stage: 'sandbox' }));
    expect(url).toBe('https://abc.execute-api.us-east-1.amazonaws.com');
  });
});
