// FC_LOCAL_SEED: the applications and keys the local runtime ensures at start. Without it, one
// application on the free plan with a freshly generated test key (the previous one is revoked:
// only hashes are stored, so a key can be shown once and never again).
import { z } from 'zod';
import { PLAN_NAMES, type PlanName } from '../../contracts/limits';
import type { Environment } from '../../contracts/schemas';
import { API_KEY_PATTERN, environmentOfKey, generateApiKey, sha256Hex } from '../../core/api-keys';
import { issueKey, putApplication } from '../../data/api-keys-repo';
import type { Deps } from '../runtime';

const SeedSchema = z.array(
  z.strictObject({
    application: z.string().min(1).max(120),
    plan: z.enum(PLAN_NAMES as [PlanName, ...PlanName[]]),
    keys: z
      .array(z.string().regex(API_KEY_PATTERN, 'keys look like fc_sk_test_<16+ letters/digits> or fc_sk_live_<...>'))
      .min(1)
      .max(2)
      .refine((list) => new Set(list.map(environmentOfKey)).size === list.length, 'at most one key per environment (test, live)'),
  }),
);
export type SeedApplication = z.infer<typeof SeedSchema>[number];

export const DEFAULT_APPLICATION = 'Local development';

export function parseSeed(raw: string | undefined): SeedApplication[] | null {
  if (raw === undefined || raw.trim() === '') return null;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error('FC_LOCAL_SEED is not valid JSON');
  }
  const parsed = SeedSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`FC_LOCAL_SEED: ${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

/** Seeded application ids are derived from the name, so restarts find the same application. */
export function applicationIdFor(name: string): string {
  return `app_${sha256Hex(`application:${name}`).slice(0, 16)}`;
}

export interface SeededKey {
  application: string;
  applicationId: string;
  plan: PlanName;
  environment: Environment;
  key: string;
}

export async function applySeed(deps: Deps, seed: SeedApplication[] | null): Promise<SeededKey[]> {
  const apps = seed ?? [{ application: DEFAULT_APPLICATION, plan: 'free' as const, keys: [generateApiKey('test')] }];
  const out: SeededKey[] = [];
  for (const app of apps) {
    const record = { applicationId: applicationIdFor(app.application), name: app.application, plan: app.plan };
    await putApplication(deps, record);
    for (const key of app.keys) {
      await issueKey(deps, record, key);
      out.push({ application: app.application, applicationId: record.applicationId, plan: app.plan, environment: environmentOfKey(key), key });
    }
  }
  return out;
}
