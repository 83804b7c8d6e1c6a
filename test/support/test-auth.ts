// The AuthContext a key-authenticated request carries once the middleware admitted it, for tests that
// call use cases directly: a test key of `applicationId` (its key id derived from it) on `plan`.
import type { AuthContext } from '../../functions/data/api-keys-repo';
import type { PlanName } from '../../functions/contracts/limits';

export function testAuth(applicationId: string, plan: PlanName = 'enterprise', rateLimit = 1000): AuthContext {
  return {
    applicationId,
    environment: 'test',
    keyId: applicationId.replace(/^app_/, 'key_'),
    plan,
    rateLimit: { limit: rateLimit, remaining: rateLimit - 1, reset: 0 },
    usage: { kind: 'api', used: 1, quota: null },
  };
}
