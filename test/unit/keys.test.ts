import { keys, TABLE, usageAttribute } from '../../functions/data/keys';

describe('the key schema', () => {
  it('builds the exact key strings of each entity', () => {
    expect(keys.application('app_1')).toEqual({ pk: 'APP#app_1', sk: 'APP' });
    expect(keys.apiKey('abc')).toEqual({ pk: 'KEY#abc', sk: 'KEY' });
    expect(keys.apiKeyByApplication('app_1', 'live', 'key_9')).toEqual({ gsi1pk: 'APPKEYS#app_1', gsi1sk: 'live#key_9' });
    expect(keys.apiKeysOfApplicationPrefix('app_1', 'test')).toEqual({ gsi1pk: 'APPKEYS#app_1', gsi1skPrefix: 'test#' });
  });

  it('names monthly usage attributes by UTC month', () => {
    expect(usageAttribute('api', new Date('2026-11-30T23:59:59Z'))).toBe('used_api_202611');
    expect(usageAttribute('ai', new Date('2027-01-01T00:00:00Z'))).toBe('used_ai_202701');
  });

  it('declares the table with pk/sk, one GSI and a TTL attribute', () => {
    expect(TABLE.partitionKey).toBe('pk');
    expect(TABLE.sortKey).toBe('sk');
    expect(TABLE.globalIndexes.map((g) => g.indexName)).toEqual(['gsi1']);
    expect(TABLE.ttlAttribute).toBe('expires_at');
  });
});
