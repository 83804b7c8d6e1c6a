// Secret keys of an application, per environment: list (prefix and last four, created, last used),
// create (the full key is in the answer, once, and never again: only its hash is stored) and revoke.
//
// One active key per application and environment (the spec): creating a key revokes the one before
// (issueKey). Live keys are an admin's (the permission table) and only on plans with live access
// (403 live_access_not_in_plan, the error the API itself answers a live key on such a plan).
import type * as z from 'zod';
import type { CreateKeyInput, ListKeysInput, RevokeKeyInput } from '../../contracts/console-schemas';
import { ApiError } from '../../contracts/errors';
import { PLANS } from '../../contracts/limits';
import { generateApiKey, keyIdFromHash, sha256Hex } from '../../core/api-keys';
import { ApplicationChangedError, issueKey, lastUsedOfKeys, listKeys as keysOf, revokeKeyByHash, type StoredKey } from '../../data/api-keys-repo';
import type { Deps } from '../../platform/runtime';
import type { ConsoleActor } from './actor';
import { authorizeApplication } from './authorize';

const publicKey = (key: StoredKey, lastUsed: number | null | undefined) => ({
  key_id: key.keyId,
  environment: key.environment,
  status: key.status,
  display: key.display,
  created_at: key.createdAt,
  last_used_at: typeof lastUsed === 'number' ? new Date(lastUsed).toISOString() : null,
});

export async function listKeys(deps: Deps, actor: ConsoleActor, input: z.infer<typeof ListKeysInput>) {
  await authorizeApplication(deps, actor, input.application_id, { action: 'console.keys.list' });
  const stored = (await keysOf(deps, input.application_id, input.environment)).sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.keyId.localeCompare(b.keyId));
  const lastUsed = await lastUsedOfKeys(deps, stored);
  return { keys: stored.map((key) => publicKey(key, lastUsed.get(key.keyHash))) };
}

/** Creates that found the application changed under them (a plan change, the organisation deleted) read it again this often. */
const CREATE_TRIES = 3;

/** Issues a new key; the answer is the only place the full key ever appears. */
export async function createKey(deps: Deps, actor: ConsoleActor, input: z.infer<typeof CreateKeyInput>) {
  const key = generateApiKey(input.environment);
  const keyId = keyIdFromHash(sha256Hex(key));
  for (let attempt = 1; ; attempt += 1) {
    const { application } = await authorizeApplication(deps, actor, input.application_id, {
      action: 'console.keys.create',
      subject: { environment: input.environment, key_id: keyId },
      target: { environment: input.environment },
    });
    if (input.environment === 'live' && !PLANS[application.plan].liveAccess) throw new ApiError('live_access_not_in_plan');
    try {
      // The keys this create revoked: the one it replaced (creates that race replace one another in turn).
      // Issued on the plan and organisation just read, or not at all (ApplicationChangedError).
      const stored = await issueKey(deps, { applicationId: application.applicationId, name: application.name, plan: application.plan, organizationId: application.organizationId }, key);
      return { ...publicKey(stored, null), key, replaced_key_ids: stored.replacedKeyIds };
    } catch (err) {
      if (!(err instanceof ApplicationChangedError) || attempt >= CREATE_TRIES) throw err;
    }
  }
}

export async function revokeKey(deps: Deps, actor: ConsoleActor, input: z.infer<typeof RevokeKeyInput>) {
  const seen: { key?: StoredKey } = {};
  await authorizeApplication(deps, actor, input.application_id, {
    action: 'console.keys.revoke',
    subject: { key_id: input.key_id },
    target: async ({ application }) => {
      seen.key = (await keysOf(deps, application.applicationId)).find((k) => k.keyId === input.key_id);
      if (!seen.key) throw new ApiError('key_not_found');
      return { environment: seen.key.environment };
    },
  });
  if (!seen.key) throw new ApiError('key_not_found');
  // Revoking a revoked key changes nothing; the answer is the same.
  if (seen.key.status === 'active') await revokeKeyByHash(deps, seen.key.keyHash);
  return { key_id: seen.key.keyId, environment: seen.key.environment, status: 'revoked' as const };
}
