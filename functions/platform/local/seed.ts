// FC_LOCAL_SEED: the applications and keys the local runtime ensures at start. Without it, one
// application on the free plan with a freshly generated test key (the previous one is revoked:
// only hashes are stored, so a key can be shown once and never again).
import * as z from 'zod';
import { PLAN_NAMES, type PlanName } from '../../contracts/limits';
import type { Environment } from '../../contracts/schemas';
import { API_KEY_PATTERN, displayOfKey, environmentOfKey, generateApiKey, sha256Hex } from '../../core/api-keys';
import { isRegistrableUrl, normaliseOrigin, normaliseRedirectUri } from '../../core/link-rules';
import { issueKey, putApplication } from '../../data/api-keys-repo';
import type { Deps } from '../runtime';

/** An allowlist entry: normalised, and https or http on a loopback host. */
const allowlistEntry = (normalise: (value: string) => string | null, what: string) =>
  z.string().transform((value, ctx) => {
    const normalised = normalise(value);
    if (normalised === null || !isRegistrableUrl(normalised)) {
      ctx.addIssue({ code: 'custom', message: `${what} must be https (or http on localhost, 127.0.0.1 or [::1]): ${value}` });
      return z.NEVER;
    }
    return normalised;
  });

const SeedSchema = z.array(
  z.strictObject({
    application: z.string().min(1).max(120),
    plan: z.enum(PLAN_NAMES as [PlanName, ...PlanName[]]),
    keys: z
      .array(z.string().regex(API_KEY_PATTERN, 'keys look like fc_sk_test_<16+ letters/digits> or fc_sk_live_<...>'))
      .min(1)
      .max(2)
      .refine((list) => new Set(list.map(environmentOfKey)).size === list.length, 'at most one key per environment (test, live)'),
    /** Where live link tokens may send the browser (redirect_uri must match one exactly). */
    redirect_uris: z.array(allowlistEntry(normaliseRedirectUri, 'a redirect URI (no credentials or fragment)')).max(50).optional(),
    /** Origins whose pages may embed Link through the SDK. */
    link_origins: z.array(allowlistEntry(normaliseOrigin, 'an origin (scheme://host[:port])')).max(50).optional(),
  }),
);
export type SeedApplication = z.input<typeof SeedSchema>[number];

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
  /** Made by this start (no seed given): nobody has seen it yet, so the banner shows it once. */
  generated: boolean;
}

/**
 * How the start banner shows a key: a test key this start generated in full (the only chance to
 * see it), every other key as prefix and last four, since the operator already has it and the
 * terminal's scrollback and captured output are no place for a live or long-lived secret.
 */
export function bannerKey(key: SeededKey): string {
  return key.generated && key.environment === 'test' ? key.key : displayOfKey(key.key).display;
}

export async function applySeed(deps: Deps, seed: SeedApplication[] | null): Promise<SeededKey[]> {
  const generated = seed === null;
  const apps = seed ?? [{ application: DEFAULT_APPLICATION, plan: 'free' as const, keys: [generateApiKey('test')] }];
  const out: SeededKey[] = [];
  for (const app of apps) {
    const record = {
      applicationId: applicationIdFor(app.application),
      name: app.application,
      plan: app.plan,
      redirectUris: app.redirect_uris?.map((uri) => normaliseRedirectUri(uri) ?? uri),
      linkOrigins: app.link_origins?.map((origin) => normaliseOrigin(origin) ?? origin),
    };
    await putApplication(deps, record);
    for (const key of app.keys) {
      await issueKey(deps, record, key);
      out.push({ application: app.application, applicationId: record.applicationId, plan: app.plan, environment: environmentOfKey(key), key, generated });
    }
  }
  return out;
}
