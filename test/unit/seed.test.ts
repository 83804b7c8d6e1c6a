import { applicationIdFor, parseSeed } from '../../functions/platform/local/seed';

const key = (env: string, fill = 'a') => `fc_sk_${env}_${fill.repeat(24)}`;

describe('FC_LOCAL_SEED', () => {
  it('is optional', () => {
    expect(parseSeed(undefined)).toBeNull();
    expect(parseSeed('  ')).toBeNull();
  });

  it('accepts applications with a plan and one key per environment', () => {
    const seed = parseSeed(JSON.stringify([{ application: 'Acme', plan: 'growth', keys: [key('test'), key('live')] }]));
    expect(seed).toEqual([{ application: 'Acme', plan: 'growth', keys: [key('test'), key('live')] }]);
  });

  it('rejects two keys for the same environment, unknown plans, bad keys and bad JSON with a clear message', () => {
    expect(() => parseSeed(JSON.stringify([{ application: 'A', plan: 'free', keys: [key('test'), key('test', 'b')] }]))).toThrow(/one key per environment/);
    expect(() => parseSeed(JSON.stringify([{ application: 'A', plan: 'gold', keys: [key('test')] }]))).toThrow(/plan/);
    expect(() => parseSeed(JSON.stringify([{ application: 'A', plan: 'free', keys: ['sk_123'] }]))).toThrow(/fc_sk_test_/);
    expect(() => parseSeed('[{')).toThrow(/not valid JSON/);
  });

  it('derives a stable application id from the name', () => {
    expect(applicationIdFor('Acme')).toBe(applicationIdFor('Acme'));
    expect(applicationIdFor('Acme')).not.toBe(applicationIdFor('Acme 2'));
    expect(applicationIdFor('Acme')).toMatch(/^app_[0-9a-f]{16}$/);
  });
});
