// FC_LOCAL_SEED: the applications and keys the local runtime ensures at start. Without it, one
// application on the free plan with the runtime's own test key: kept in an owner-only file in the
// data directory so that it stays the same across restarts (the table stores only its hash), and
// generated afresh in memory mode, on request, or when the kept one was revoked.
import { existsSync, readFileSync } from 'node:fs';
import * as z from 'zod';
import { PLAN_NAMES, type PlanName } from '../../contracts/limits';
import type { Environment } from '../../contracts/schemas';
import { API_KEY_PATTERN, displayOfKey, environmentOfKey, generateApiKey, sha256Hex } from '../../core/api-keys';
import { isRegistrableUrl, normaliseOrigin, normaliseRedirectUri } from '../../core/link-rules';
import { issueKey, listKeys, putApplication } from '../../data/api-keys-repo';
import type { Deps } from '../runtime';
import { writePrivateFile } from './private-files';

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
  /** The runtime's own test key (no seed given), shown in full by the banner; a seeded key is the operator's. */
  generated: boolean;
  /** The runtime's own key read back from its key file (false: made by this start). */
  kept?: boolean;
}

/** Where the runtime keeps its own test key between starts, and whether to replace it this start. */
export interface LocalTestKeyFile {
  file: string;
  /** `npm start -- --new-test-key` or FC_LOCAL_NEW_TEST_KEY=1: revoke the kept key and make another. */
  regenerate: boolean;
}

/**
 * The default application's test key: the kept one while it is still usable (a fresh table has no
 * row for it yet; a key revoked from the console is not brought back), else a new one.
 */
async function runtimeTestKey(deps: Deps, applicationId: string, keyFile: LocalTestKeyFile | undefined): Promise<{ key: string; kept: boolean }> {
  if (keyFile && !keyFile.regenerate && existsSync(keyFile.file)) {
    const stored = readFileSync(keyFile.file, 'utf8').trim();
    if (API_KEY_PATTERN.test(stored) && environmentOfKey(stored) === 'test') {
      const row = (await listKeys(deps, applicationId, 'test')).find((k) => k.keyHash === sha256Hex(stored));
      if (!row || row.status === 'active') return { key: stored, kept: true };
    }
  }
  return { key: generateApiKey('test'), kept: false };
}

/**
 * How the start banner shows a key: the runtime's own test key in full (it is a local test key the
 * developer needs, also kept in the owner-only key file), every other key as prefix and last four,
 * since the operator already has it and the terminal's scrollback and captured output are no place
 * for a live or operator-chosen secret.
 */
export function bannerKey(key: SeededKey): string {
  return key.generated && key.environment === 'test' ? key.key : displayOfKey(key.key).display;
}

export async function applySeed(deps: Deps, seed: SeedApplication[] | null, keyFile?: LocalTestKeyFile): Promise<SeededKey[]> {
  const generated = seed === null;
  const runtimeKey = seed === null ? await runtimeTestKey(deps, applicationIdFor(DEFAULT_APPLICATION), keyFile) : null;
  const apps = seed ?? [{ application: DEFAULT_APPLICATION, plan: 'free' as const, keys: runtimeKey ? [runtimeKey.key] : [] }];
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
      out.push({ application: app.application, applicationId: record.applicationId, plan: app.plan, environment: environmentOfKey(key), key, generated, kept: runtimeKey?.kept ?? false });
    }
  }
  // Written once the key is issued (and its predecessor revoked), so the file never names a key the table refuses.
  if (runtimeKey && keyFile && !runtimeKey.kept) writePrivateFile(keyFile.file, `${runtimeKey.key}\n`);
  return out;
}
