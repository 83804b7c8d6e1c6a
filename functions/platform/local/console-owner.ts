// The local console's first owner, ensured at every start (bin/local.ts): without anyone to sign in
// as, the local console could not be used at all (there is no sign-up without an invitation).
//
// The first start creates owner@localhost (or FC_LOCAL_CONSOLE_EMAIL) with a random password, shown
// once in the start banner like a generated test key; only its scrypt hash is stored. Later starts
// find the user and show no password: it is never stored in clear, so it is never shown again
// (in-memory mode starts from nothing, so it shows a new one every time). Every start also makes
// sure the owner's organisation "Local development" exists and owns the seeded applications that
// no organisation owns yet, so they appear in the console.
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../core/api-keys';
import { getApplication, putApplication } from '../../data/api-keys-repo';
import { createOrganization, getOrganization } from '../../data/console-repo';
import { createUser, EmailTakenError, normaliseEmail, userByEmail, type UserRecord } from '../../data/console-sessions-repo';
import { hashPassword } from '../console-identity';
import type { Deps } from '../runtime';

export const DEFAULT_CONSOLE_EMAIL = 'owner@localhost';
export const LOCAL_ORGANIZATION_NAME = 'Local development';

export interface ConsoleOwner {
  userId: string;
  email: string;
  /** Only when this start created the user: the one time it is shown. */
  password: string | null;
  organizationId: string;
}

/** The owner's local organisation has an id derived from the owner, so every start finds the same one. */
export function localOrganizationIdFor(userId: string): string {
  return `org_${sha256Hex(`local-organization:${userId}`).slice(0, 16)}`;
}

export async function ensureConsoleOwner(deps: Deps, options: { email?: string; applicationIds: readonly string[] }): Promise<ConsoleOwner> {
  const email = normaliseEmail(options.email || DEFAULT_CONSOLE_EMAIL);
  let password: string | null = null;
  let user: UserRecord | undefined = await userByEmail(deps, email);
  if (!user) {
    // 18 random bytes: 24 base64url characters, over the 12-character minimum with 144 bits to guess.
    const candidate = randomBytes(18).toString('base64url');
    try {
      user = await createUser(deps, { email, name: 'Local owner', passwordHash: await hashPassword(candidate) });
      password = candidate;
    } catch (err) {
      if (!(err instanceof EmailTakenError)) throw err;
      user = await userByEmail(deps, email);
      if (!user) throw err;
    }
  }

  const organizationId = localOrganizationIdFor(user.userId);
  if (!(await getOrganization(deps, organizationId))) {
    await createOrganization(deps, { organizationId, name: LOCAL_ORGANIZATION_NAME, createdAt: new Date(deps.clock.now()).toISOString(), createdBy: user.userId });
  }
  for (const applicationId of new Set(options.applicationIds)) {
    const app = await getApplication(deps, applicationId);
    // An application some organisation already owns stays where it is.
    if (!app || app.organizationId !== null) continue;
    await putApplication(deps, {
      applicationId,
      name: app.name,
      plan: app.plan,
      redirectUris: app.redirectUris,
      linkOrigins: app.linkOrigins,
      organizationId,
      createdAt: app.createdAt ?? undefined,
    });
  }
  return { userId: user.userId, email, password, organizationId };
}
