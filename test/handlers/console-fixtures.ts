// Shared set-up of the console use case tests: users, an organisation with a member of every role
// (joined through real invitations), actors, and whole-table snapshots to prove a call changed
// nothing.
import { randomUUID } from 'node:crypto';
import { ScanCommand, type ScanCommandOutput } from '../../functions/platform/aws/dynamodb';
import type { ConsoleActor } from '../../functions/app/console/actor';
import type * as z from 'zod';
import { ApiError, type ErrorCode } from '../../functions/contracts/errors';
import { schemaError } from '../../functions/platform/middleware';
import { acceptInvitation, createInvitation } from '../../functions/app/console/invitations';
import { createOrganization } from '../../functions/app/console/organizations';
import type { ConsoleRole } from '../../functions/core/console-permissions';
import { createUser, type UserRecord } from '../../functions/data/console-sessions-repo';
import type { Deps } from '../../functions/platform/runtime';
import { rejectionOf } from '../support/rejection';

export const BASE_URL = 'http://127.0.0.1:3000';

let userCounter = 0;

export async function newUser(deps: Deps, label = 'user'): Promise<UserRecord> {
  userCounter += 1;
  return createUser(deps, { email: `${label}-${userCounter}@example.com`, name: `${label} ${userCounter}` });
}

/** A fresh actor (own request id) for each call: audit rows are keyed by time and request id. */
export function actorOf(user: UserRecord, overrides: Partial<ConsoleActor> = {}): ConsoleActor {
  return {
    user: { userId: user.userId, email: user.email, name: user.name },
    sessionHash: `s_${user.userId}`,
    clientAddress: '203.0.113.7',
    userAgent: 'console-test/1.0',
    requestId: `req_${randomUUID()}`,
    ...overrides,
  };
}

/** The token of an invitation link (the URL's last path segment, in the fragment). */
export function tokenOf(invitationUrl: string): string {
  return invitationUrl.slice(invitationUrl.lastIndexOf('/') + 1);
}

/** Invites `user` with `role` (as `inviter`) and accepts as them. */
export async function addMember(deps: Deps, inviter: UserRecord, organizationId: string, user: UserRecord, role: ConsoleRole): Promise<void> {
  const invitation = await createInvitation(deps, actorOf(inviter), { organization_id: organizationId, email: user.email, role }, BASE_URL);
  await acceptInvitation(deps, actorOf(user), { token: tokenOf(invitation.invitation_url) });
}

export interface ConsoleWorld {
  organizationId: string;
  name: string;
  /** One member per role (and a second owner, so that any one owner may leave or be demoted). */
  members: Record<ConsoleRole, UserRecord> & { secondOwner: UserRecord };
  /** Signed in, member of nothing here. */
  stranger: UserRecord;
  as(who: ConsoleRole | 'secondOwner' | 'stranger'): ConsoleActor;
}

let orgCounter = 0;

export async function consoleWorld(deps: Deps): Promise<ConsoleWorld> {
  orgCounter += 1;
  const owner = await newUser(deps, 'owner');
  const name = `Org ${orgCounter}`;
  const org = await createOrganization(deps, actorOf(owner), { name });
  const members = { owner, secondOwner: await newUser(deps, 'owner2'), admin: await newUser(deps, 'admin'), developer: await newUser(deps, 'dev'), viewer: await newUser(deps, 'viewer') };
  await addMember(deps, owner, org.organization_id, members.secondOwner, 'owner');
  for (const role of ['admin', 'developer', 'viewer'] as const) await addMember(deps, owner, org.organization_id, members[role], role);
  const stranger = await newUser(deps, 'stranger');
  return {
    organizationId: org.organization_id,
    name,
    members,
    stranger,
    as: (who) => actorOf(who === 'stranger' ? stranger : members[who]),
  };
}

/** Every row of the table, as sorted JSON lines (for before/after comparisons). */
export async function tableRows(deps: Deps): Promise<string[]> {
  const rows: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res: ScanCommandOutput = await deps.ddb.send(new ScanCommand({ TableName: deps.config.tableName, ExclusiveStartKey: start, ConsistentRead: true }));
    rows.push(...(res.Items ?? []).map((item) => JSON.stringify(Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b))))));
    start = res.LastEvaluatedKey;
  } while (start);
  return rows.sort();
}

export { rejectionOf };

/** Expects a console error answer: its code and its HTTP status. */
export async function expectConsoleError(call: Promise<unknown>, code: ErrorCode, status: number): Promise<ApiError> {
  const err = await rejectionOf(call);
  expect(err).toBeInstanceOf(ApiError);
  expect({ code: (err as ApiError).code, status: (err as ApiError).status }).toEqual({ code, status });
  return err as ApiError;
}

/** A body parsed by a console route's schema as the middleware parses it (the first problem as the API's 400 answer). */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw schemaError(parsed.error, raw);
  return parsed.data;
}
