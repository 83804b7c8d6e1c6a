import { displayOfKey, environmentOfKey, generateApiKey, isWellFormedApiKey, keyIdFromHash, sha256Hex } from '../../functions/core/api-keys';

describe('secret API keys', () => {
  it('are generated per environment with 32 random base62 characters', () => {
    const a = generateApiKey('test');
    const b = generateApiKey('live');
    expect(a).toMatch(/^fc_sk_test_[A-Za-z0-9]{32}$/);
    expect(b).toMatch(/^fc_sk_live_[A-Za-z0-9]{32}$/);
    expect(generateApiKey('test')).not.toBe(a);
  });

  it('are recognised only in the documented format', () => {
    expect(isWellFormedApiKey(generateApiKey('test'))).toBe(true);
    expect(isWellFormedApiKey('fc_sk_prod_abcdefghijklmnop')).toBe(false);
    expect(isWellFormedApiKey('fc_sk_test_short')).toBe(false);
    expect(isWellFormedApiKey('fc_at_abcdefghijklmnopqrstu')).toBe(false);
  });

  it('are stored as SHA-256 with a display prefix and last four', () => {
    const key = 'fc_sk_live_ABCDEFGHIJKLMNOPwxyz';
    expect(sha256Hex(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(displayOfKey(key)).toEqual({ prefix: 'fc_sk_live_', last4: 'wxyz', display: 'fc_sk_live_…wxyz' });
    expect(environmentOfKey(key)).toBe('live');
    expect(keyIdFromHash(sha256Hex(key))).toBe(`key_${sha256Hex(key).slice(0, 16)}`);
  });
});
