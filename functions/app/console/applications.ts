// Applications of an organisation: list, create (admin), rename or change plan (admin).
//
// A plan change writes the application row and then stamps the new plan on each of its active keys
// (replanKey: the ApiKey row and every metering shard in one transaction, as issuing a key does), so
// the rate limit, quotas and live access of the keys follow at once. A key issued in the moment
// between the two reads the application's plan when it is issued.
import { randomBytes } from 'node:crypto';
import type * as z from 'zod';
import type { CreateApplicationInput, ListApplicationsInput, UpdateApplicationInput } from '../../contracts/console-schemas';
import { ApiError } from '../../contracts/errors';
import { PLANS } from '../../contracts/limits';
import { activeKeyHashes, getApplication, listApplicationsOf, listKeys, putApplication, replanKey, updateApplication as patchApplication, type StoredApplication } from '../../data/api-keys-repo';
import type { Deps } from '../../platform/runtime';
import type { ConsoleActor } from './actor';
import { authorize, authorizeApplication } from './authorize';

export const publicApplication = (app: StoredApplication) => ({
  application_id: app.applicationId,
  organization_id: app.organizationId,
  name: app.name,
  plan: app.plan,
  live_access: PLANS[app.plan].liveAccess,
  created_at: app.createdAt,
});

export async function listApplications(deps: Deps, actor: ConsoleActor, input: z.infer<typeof ListApplicationsInput>) {
  await authorize(deps, actor, input.organization_id, { action: 'console.applications.list' });
  return { applications: (await listApplicationsOf(deps, input.organization_id)).map(publicApplication) };
}

export async function createApplication(deps: Deps, actor: ConsoleActor, input: z.infer<typeof CreateApplicationInput>) {
  const applicationId = `app_${randomBytes(8).toString('hex')}`;
  await authorize(deps, actor, input.organization_id, { action: 'console.applications.create', subject: { application_id: applicationId } });
  const createdAt = new Date(deps.clock.now()).toISOString();
  await putApplication(deps, { applicationId, name: input.name, plan: input.plan ?? 'free', organizationId: input.organization_id, createdAt });
  const app = await getApplication(deps, applicationId);
  if (!app) throw new Error(`application ${applicationId} was not stored`);
  return publicApplication(app);
}

export async function updateApplication(deps: Deps, actor: ConsoleActor, input: z.infer<typeof UpdateApplicationInput>) {
  const { application } = await authorizeApplication(deps, actor, input.application_id, {
    action: 'console.applications.update',
    subject: { ...(input.plan ? { plan: input.plan } : {}), ...(input.name ? { name: input.name } : {}) },
  });
  const updated = await patchApplication(deps, application.applicationId, application.organizationId, {
    ...(input.name === undefined ? {} : { name: input.name }),
    ...(input.plan === undefined ? {} : { plan: input.plan }),
  });
  if (!updated) throw new ApiError('application_not_found');
  let replannedKeys = 0;
  if (input.plan !== undefined && input.plan !== application.plan) {
    // The listed active keys, and the ones the activeKeyOf rows name (read consistently: a key issued
    // a moment ago may not be listed yet; one issued after the plan change carries the new plan).
    const listed = (await listKeys(deps, application.applicationId)).filter((k) => k.status === 'active').map((k) => k.keyHash);
    for (const keyHash of new Set([...listed, ...(await activeKeyHashes(deps, application.applicationId))])) {
      if (await replanKey(deps, { applicationId: application.applicationId, name: updated.name, plan: updated.plan }, keyHash)) replannedKeys += 1;
    }
  }
  return { ...publicApplication(updated), replanned_keys: replannedKeys };
}
