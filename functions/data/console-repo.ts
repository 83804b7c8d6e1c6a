// The console's organisations, memberships (with the owner count), invitations and audit log.
// Users and sessions are in console-sessions-repo.ts.
//
// Every organisation has at least one owner: an OwnerCount row (ORG#<org>/OWNERS) counts them, and
// every write that removes or demotes an owner decrements it under the condition that it stays at
// least one, in the same transaction as the membership write. Two owners demoting each other at the
// same time therefore cannot both succeed.
import {
  BatchGetCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type QueryCommandOutput,
  type TransactWriteCommandInput,
  isTransactionCanceled,
} from '../platform/aws/dynamodb';
import type { Environment } from '../contracts/schemas';
import type { ConsoleRole } from '../core/console-permissions';
import { queryByPrefix, queryIndexPartition, writeIf, type Row } from './dynamo';
import { TABLE, keys } from './keys';
import type { Deps } from '../platform/runtime';

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

const MAX_TRANSACTION_TRIES = 8;

/** Cancellation codes of a transaction, one per item; null when it committed. Conflicts are retried. */
async function transact(deps: Deps, items: TransactItems): Promise<string[] | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      await deps.ddb.send(new TransactWriteCommand({ TransactItems: items }));
      return null;
    } catch (err) {
      if (!isTransactionCanceled(err)) throw err;
      const codes = (err.CancellationReasons ?? []).map((r) => r.Code ?? 'None');
      if (!codes.includes('TransactionConflict') || codes.includes('ConditionalCheckFailed') || attempt >= MAX_TRANSACTION_TRIES) return codes;
      // Full jitter: racing writers spread out instead of colliding again in step.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(500, 10 * 2 ** attempt)));
    }
  }
}

// ---------- organisations ----------

export interface OrganizationRecord {
  organizationId: string;
  name: string;
  createdAt: string;
  createdBy: string;
}

export interface MembershipRecord {
  organizationId: string;
  userId: string;
  role: ConsoleRole;
  joinedAt: string;
}

const organizationFromRow = (r: Row): OrganizationRecord => ({
  organizationId: r.organization_id,
  name: r.name,
  createdAt: r.created_at,
  createdBy: r.created_by,
});

const membershipFromRow = (r: Row): MembershipRecord => ({
  organizationId: r.organization_id,
  userId: r.user_id,
  role: r.role,
  joinedAt: r.joined_at,
});

function membershipItem(m: MembershipRecord) {
  return { ...keys.membership(m.organizationId, m.userId), organization_id: m.organizationId, user_id: m.userId, role: m.role, joined_at: m.joinedAt };
}

/** The organisation, its creator as its one owner, and the owner count, in one transaction. */
export async function createOrganization(deps: Deps, org: OrganizationRecord): Promise<void> {
  const table = deps.config.tableName;
  const codes = await transact(deps, [
    {
      Put: {
        TableName: table,
        Item: { ...keys.organization(org.organizationId), organization_id: org.organizationId, name: org.name, created_at: org.createdAt, created_by: org.createdBy },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    { Put: { TableName: table, Item: membershipItem({ organizationId: org.organizationId, userId: org.createdBy, role: 'owner', joinedAt: org.createdAt }) } },
    { Put: { TableName: table, Item: { ...keys.ownerCount(org.organizationId), owner_count: 1 } } },
  ]);
  if (codes) throw new Error(`organisation ${org.organizationId} was not created (${codes.join(', ')})`);
}

export async function getOrganization(deps: Deps, organizationId: string): Promise<OrganizationRecord | undefined> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.organization(organizationId), ConsistentRead: true }));
  return res.Item ? organizationFromRow(res.Item) : undefined;
}

/** The organisation and the user's membership of it, in one strongly consistent read. */
export async function organizationAndMembership(
  deps: Deps,
  organizationId: string,
  userId: string,
): Promise<{ organization?: OrganizationRecord; membership?: MembershipRecord }> {
  const table = deps.config.tableName;
  const wanted = [keys.organization(organizationId), { pk: keys.membership(organizationId, userId).pk, sk: keys.membership(organizationId, userId).sk }];
  const found: Row[] = [];
  let pending: Array<Record<string, unknown>> = wanted;
  for (let round = 0; pending.length > 0; round += 1) {
    if (round === 5) throw new Error('DynamoDB left console rows unread after 5 rounds');
    const res = await deps.ddb.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }));
    found.push(...(res.Responses?.[table] ?? []));
    pending = res.UnprocessedKeys?.[table]?.Keys ?? [];
  }
  const org = found.find((r) => r.sk === 'ORG');
  const member = found.find((r) => r.sk !== 'ORG');
  return { organization: org ? organizationFromRow(org) : undefined, membership: member ? membershipFromRow(member) : undefined };
}

/** The organisations a user belongs to, with the user's role in each (the index: eventually consistent). */
export async function organizationsOfUser(deps: Deps, userId: string): Promise<Array<OrganizationRecord & { role: ConsoleRole }>> {
  const table = deps.config.tableName;
  const memberships = (await queryIndexPartition(deps, keys.organizationsOfUser(userId).gsi1pk)).map(membershipFromRow);
  const orgs = new Map<string, OrganizationRecord>();
  for (let i = 0; i < memberships.length; i += 100) {
    let pending: Array<Record<string, unknown>> = memberships.slice(i, i + 100).map((m) => keys.organization(m.organizationId));
    for (let round = 0; pending.length > 0; round += 1) {
      if (round === 5) throw new Error('DynamoDB left organisations unread after 5 rounds');
      const res = await deps.ddb.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending } } }));
      for (const row of res.Responses?.[table] ?? []) orgs.set(row.organization_id, organizationFromRow(row));
      pending = res.UnprocessedKeys?.[table]?.Keys ?? [];
    }
  }
  // A membership whose organisation is gone (a delete in progress) is no membership.
  return memberships.flatMap((m) => {
    const org = orgs.get(m.organizationId);
    return org ? [{ ...org, role: m.role }] : [];
  });
}

// ---------- memberships ----------

export async function listMembers(deps: Deps, organizationId: string): Promise<MembershipRecord[]> {
  const k = keys.membersOf(organizationId);
  return (await queryByPrefix(deps, k.pk, k.skPrefix)).map(membershipFromRow).sort((a, b) => a.joinedAt.localeCompare(b.joinedAt) || a.userId.localeCompare(b.userId));
}

export async function getMembership(deps: Deps, organizationId: string, userId: string): Promise<MembershipRecord | undefined> {
  const k = keys.membership(organizationId, userId);
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: { pk: k.pk, sk: k.sk }, ConsistentRead: true }));
  return res.Item ? membershipFromRow(res.Item) : undefined;
}

/** `stale`: the member's role is no longer `from` (or they left); `last_owner`: the change would leave no owner. */
export type MembershipChange = 'done' | 'stale' | 'last_owner';

/** One fewer owner, only while at least one other remains. */
function ownerLeaves(table: string, organizationId: string) {
  return {
    Update: {
      TableName: table,
      Key: keys.ownerCount(organizationId),
      UpdateExpression: 'ADD owner_count :minus',
      ConditionExpression: 'owner_count > :one',
      ExpressionAttributeValues: { ':minus': -1, ':one': 1 },
    },
  };
}

function ownerJoins(table: string, organizationId: string) {
  return {
    Update: {
      TableName: table,
      Key: keys.ownerCount(organizationId),
      UpdateExpression: 'ADD owner_count :plus',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':plus': 1 },
    },
  };
}

function outcomeOf(codes: string[] | null): MembershipChange {
  if (!codes) return 'done';
  if (codes[0] === 'ConditionalCheckFailed') return 'stale';
  if (codes[1] === 'ConditionalCheckFailed') return 'last_owner';
  throw new Error(`membership change not committed (${codes.join(', ')})`);
}

/** Changes a member's role from `from` to `to`, keeping the owner count right in the same transaction. */
export async function changeMemberRole(deps: Deps, organizationId: string, userId: string, from: ConsoleRole, to: ConsoleRole): Promise<MembershipChange> {
  if (from === to) return (await getMembership(deps, organizationId, userId))?.role === from ? 'done' : 'stale';
  const table = deps.config.tableName;
  const k = keys.membership(organizationId, userId);
  const items: TransactItems = [
    {
      Update: {
        TableName: table,
        Key: { pk: k.pk, sk: k.sk },
        UpdateExpression: 'SET #role = :to',
        ConditionExpression: '#role = :from',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':to': to, ':from': from },
      },
    },
  ];
  if (from === 'owner') items.push(ownerLeaves(table, organizationId));
  if (to === 'owner') items.push(ownerJoins(table, organizationId));
  return outcomeOf(await transact(deps, items));
}

/** Removes a member whose role is `role`; an owner only while another owner remains. */
export async function removeMember(deps: Deps, organizationId: string, userId: string, role: ConsoleRole): Promise<MembershipChange> {
  const table = deps.config.tableName;
  const k = keys.membership(organizationId, userId);
  const items: TransactItems = [
    {
      Delete: {
        TableName: table,
        Key: { pk: k.pk, sk: k.sk },
        ConditionExpression: '#role = :role',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':role': role },
      },
    },
  ];
  if (role === 'owner') items.push(ownerLeaves(table, organizationId));
  return outcomeOf(await transact(deps, items));
}

export async function ownerCount(deps: Deps, organizationId: string): Promise<number> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.ownerCount(organizationId), ConsistentRead: true }));
  return Number(res.Item?.owner_count ?? 0);
}

// ---------- invitations ----------

export type InvitationStatus = 'pending' | 'accepted' | 'revoked';

export interface InvitationRecord {
  invitationId: string;
  /** SHA-256 of the token: the row's identity (the token itself is never stored). */
  tokenHash: string;
  organizationId: string;
  role: ConsoleRole;
  /** Lower-cased: the invitee must sign in with this address. */
  email: string;
  createdBy: string;
  createdAt: string;
  /** Unix ms; the row's TTL is the same instant in seconds. */
  expiresAt: number;
  status: InvitationStatus;
  acceptedBy?: string;
}

const invitationFromRow = (r: Row): InvitationRecord => ({
  invitationId: r.invitation_id,
  tokenHash: r.token_hash,
  organizationId: r.organization_id,
  role: r.role,
  email: r.email,
  createdBy: r.created_by,
  createdAt: r.created_at,
  expiresAt: r.expires_ms,
  status: r.status,
  ...(r.accepted_by ? { acceptedBy: r.accepted_by } : {}),
});

export async function putInvitation(deps: Deps, inv: Omit<InvitationRecord, 'status' | 'acceptedBy'>): Promise<void> {
  await deps.ddb.send(
    new PutCommand({
      TableName: deps.config.tableName,
      Item: {
        ...keys.invitation(inv.tokenHash),
        ...keys.invitationOfOrganization(inv.organizationId, inv.createdAt, inv.invitationId),
        invitation_id: inv.invitationId,
        token_hash: inv.tokenHash,
        organization_id: inv.organizationId,
        role: inv.role,
        email: inv.email,
        created_by: inv.createdBy,
        created_at: inv.createdAt,
        expires_ms: inv.expiresAt,
        expires_at: Math.ceil(inv.expiresAt / 1000),
        status: 'pending',
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function getInvitation(deps: Deps, tokenHash: string): Promise<InvitationRecord | undefined> {
  const res = await deps.ddb.send(new GetCommand({ TableName: deps.config.tableName, Key: keys.invitation(tokenHash), ConsistentRead: true }));
  return res.Item ? invitationFromRow(res.Item) : undefined;
}

/** Every invitation of the organisation the table still holds (whatever its status), newest first. */
export async function listInvitations(deps: Deps, organizationId: string): Promise<InvitationRecord[]> {
  return (await queryIndexPartition(deps, keys.invitationsOf(organizationId).gsi1pk, { newestFirst: true })).map(invitationFromRow);
}

/** Revokes a pending invitation; false when it was no longer pending (accepted, revoked). */
export async function revokeInvitation(deps: Deps, tokenHash: string, at: string): Promise<boolean> {
  return writeIf(() =>
    deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: keys.invitation(tokenHash),
        UpdateExpression: 'SET #status = :revoked, revoked_at = :at',
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':revoked': 'revoked', ':pending': 'pending', ':at': at },
      }),
    ),
  );
}

/** `spent`: accepted, revoked or expired already (or its organisation is gone); `already_member`: spent now, membership unchanged. */
export type InvitationAcceptance = 'accepted' | 'already_member' | 'spent';

/**
 * Spends the invitation and makes the user a member with its role, in one transaction: the
 * invitation's conditional status change makes it single-use however many accepts race. With
 * `creatorRoles`, the invitation's creator must still be a member with one of those roles, checked
 * in the same transaction (a creator removed or demoted meanwhile leaves it `spent`, unused).
 */
export async function acceptInvitation(deps: Deps, inv: InvitationRecord, userId: string, now: number, creatorRoles?: readonly ConsoleRole[]): Promise<InvitationAcceptance> {
  const table = deps.config.tableName;
  const at = new Date(now).toISOString();
  const spend = {
    Update: {
      TableName: table,
      Key: keys.invitation(inv.tokenHash),
      UpdateExpression: 'SET #status = :accepted, accepted_by = :user, accepted_at = :at',
      ConditionExpression: '#status = :pending AND expires_ms > :now',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':accepted': 'accepted', ':pending': 'pending', ':user': userId, ':at': at, ':now': now },
    },
  };
  const items: TransactItems = [
    spend,
    { ConditionCheck: { TableName: table, Key: keys.organization(inv.organizationId), ConditionExpression: 'attribute_exists(pk)' } },
    {
      Put: {
        TableName: table,
        Item: membershipItem({ organizationId: inv.organizationId, userId, role: inv.role, joinedAt: at }),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
  if (inv.role === 'owner') items.push(ownerJoins(table, inv.organizationId));
  let creatorCheck: number | undefined;
  if (creatorRoles) {
    // No role may grant it: nobody's membership can satisfy the check.
    if (creatorRoles.length === 0) return 'spent';
    const creator = keys.membership(inv.organizationId, inv.createdBy);
    const roleValues = Object.fromEntries(creatorRoles.map((role, i) => [`:granting${i}`, role]));
    creatorCheck = items.length;
    items.push({
      ConditionCheck: {
        TableName: table,
        Key: { pk: creator.pk, sk: creator.sk },
        ConditionExpression: `#role IN (${Object.keys(roleValues).join(', ')})`,
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: roleValues,
      },
    });
  }
  const codes = await transact(deps, items);
  if (!codes) return 'accepted';
  if (codes[0] === 'ConditionalCheckFailed' || codes[1] === 'ConditionalCheckFailed') return 'spent';
  if (creatorCheck !== undefined && codes[creatorCheck] === 'ConditionalCheckFailed') return 'spent';
  if (codes[2] === 'ConditionalCheckFailed') {
    // A member already: the invitation is used up all the same, the role they have stays.
    return (await writeIf(() => deps.ddb.send(new UpdateCommand(spend.Update)))) ? 'already_member' : 'spent';
  }
  throw new Error(`invitation not accepted (${codes.join(', ')})`);
}

// ---------- deleting an organisation ----------

/** Deletes the organisation's invitations and the memberships of everyone but `lastUserId`. */
export async function deleteInvitationsAndMembers(deps: Deps, organizationId: string, lastUserId: string): Promise<void> {
  const table = deps.config.tableName;
  for (const inv of await listInvitations(deps, organizationId)) {
    await deps.ddb.send(new DeleteCommand({ TableName: table, Key: keys.invitation(inv.tokenHash) }));
  }
  for (const member of await listMembers(deps, organizationId)) {
    if (member.userId === lastUserId) continue;
    const k = keys.membership(organizationId, member.userId);
    await deps.ddb.send(new DeleteCommand({ TableName: table, Key: { pk: k.pk, sk: k.sk } }));
  }
}

/**
 * The last step of deleting an organisation: its row, its owner count and the deleting owner's
 * membership together; false when the organisation was already gone.
 */
export async function deleteOrganizationRow(deps: Deps, organizationId: string, lastUserId: string): Promise<boolean> {
  const table = deps.config.tableName;
  const k = keys.membership(organizationId, lastUserId);
  const codes = await transact(deps, [
    { Delete: { TableName: table, Key: keys.organization(organizationId), ConditionExpression: 'attribute_exists(pk)' } },
    { Delete: { TableName: table, Key: keys.ownerCount(organizationId) } },
    { Delete: { TableName: table, Key: { pk: k.pk, sk: k.sk } } },
  ]);
  if (!codes) return true;
  if (codes[0] === 'ConditionalCheckFailed') return false;
  throw new Error(`organisation ${organizationId} not deleted (${codes.join(', ')})`);
}

// ---------- audit log ----------

/** How long audit entries are kept (the table's TTL removes them after). */
export const AUDIT_RETENTION_DAYS = 400;

export interface AuditEntry {
  organizationId: string;
  /** ISO timestamp. */
  at: string;
  requestId: string;
  userId: string;
  email: string;
  /** The actor's role in the organisation at the time (null: not a member yet, e.g. accepting an invitation). */
  role: ConsoleRole | null;
  action: string;
  /** Ids of what was acted on (application_id, user_id, key_id, ...). */
  target: Record<string, string>;
  outcome: 'allowed' | 'denied';
  /** Why a denied action was denied. */
  reason?: string;
  clientAddress: string;
  /** At most 200 characters. */
  userAgent: string;
  /** A denied entry standing for a session's repeated denials of one action (countAuditRepeat): how many, 1 when absent. */
  repeats?: number;
  /** ISO timestamp of the last of those repeats. */
  lastAt?: string;
}

const auditFromRow = (r: Row): AuditEntry => ({
  organizationId: r.organization_id,
  at: r.at,
  requestId: r.request_id,
  userId: r.user_id,
  email: r.email,
  role: r.role ?? null,
  action: r.action,
  target: r.target ?? {},
  outcome: r.outcome,
  ...(r.reason ? { reason: r.reason } : {}),
  clientAddress: r.client_address,
  userAgent: r.user_agent,
  ...(typeof r.repeats === 'number' ? { repeats: r.repeats } : {}),
  ...(typeof r.last_at === 'string' ? { lastAt: r.last_at } : {}),
});

export async function putAuditEntry(deps: Deps, entry: AuditEntry): Promise<void> {
  await deps.ddb.send(
    new PutCommand({
      TableName: deps.config.tableName,
      Item: {
        ...keys.auditEntry(entry.organizationId, entry.at, entry.requestId),
        organization_id: entry.organizationId,
        at: entry.at,
        request_id: entry.requestId,
        user_id: entry.userId,
        email: entry.email,
        role: entry.role,
        action: entry.action,
        target: entry.target,
        outcome: entry.outcome,
        ...(entry.reason ? { reason: entry.reason } : {}),
        client_address: entry.clientAddress,
        user_agent: entry.userAgent.slice(0, 200),
        expires_at: Math.ceil(Date.parse(entry.at) / 1000) + AUDIT_RETENTION_DAYS * 86_400,
      },
    }),
  );
}

/** Where one audit entry is: its organisation, and its time and request id (the sort key). */
export interface AuditEntryRef {
  organizationId: string;
  at: string;
  requestId: string;
}

/**
 * Adds ids to an audit entry's target that were known only after it was written (what the audited
 * action created). False when the entry is not there.
 */
export async function addAuditTarget(deps: Deps, ref: AuditEntryRef, ids: Record<string, string>): Promise<boolean> {
  const entries = Object.entries(ids);
  if (entries.length === 0) return true;
  return writeIf(() =>
    deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: keys.auditEntry(ref.organizationId, ref.at, ref.requestId),
        UpdateExpression: `SET ${entries.map((_, i) => `#target.#id${i} = :id${i}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#target': 'target', ...Object.fromEntries(entries.map(([name], i) => [`#id${i}`, name])) },
        ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:id${i}`, value])),
      }),
    ),
  );
}

/** One window of a session's denials of one action in one organisation (functions/app/console/authorize.ts). */
export interface DenialWindow {
  sessionHash: string;
  organizationId: string;
  action: string;
  windowStart: number;
  windowMs: number;
}

/**
 * Names `entry` as the audit entry that stands for the window's denials, unless the window has one
 * already. Null when `entry` is now that entry (the caller writes it); else the one the window has.
 * One UpdateItem on a marker row in the session's partition, which expires with the window.
 */
export async function claimDenialWindow(deps: Deps, window: DenialWindow, entry: AuditEntryRef): Promise<AuditEntryRef | null> {
  const mine = keys.auditEntry(entry.organizationId, entry.at, entry.requestId).sk;
  const res = await deps.ddb.send(
    new UpdateCommand({
      TableName: deps.config.tableName,
      Key: keys.consoleDeniedWindow(window.sessionHash, window.organizationId, window.action, window.windowStart),
      UpdateExpression: 'SET audit_at = if_not_exists(audit_at, :at), audit_request_id = if_not_exists(audit_request_id, :rid), expires_at = :expires',
      ExpressionAttributeValues: { ':at': entry.at, ':rid': entry.requestId, ':expires': Math.ceil((window.windowStart + 2 * window.windowMs) / 1000) },
      ReturnValues: 'ALL_NEW',
    }),
  );
  const standing = { organizationId: entry.organizationId, at: String(res.Attributes?.audit_at), requestId: String(res.Attributes?.audit_request_id) };
  return keys.auditEntry(standing.organizationId, standing.at, standing.requestId).sk === mine ? null : standing;
}

/**
 * Counts one more denial on the entry that stands for them (`repeats`, and when and by which request
 * the last one came). False when that entry is not written yet (its request is still on its way).
 */
export async function countAuditRepeat(deps: Deps, ref: AuditEntryRef, last: { at: string; requestId: string }): Promise<boolean> {
  return writeIf(() =>
    deps.ddb.send(
      new UpdateCommand({
        TableName: deps.config.tableName,
        Key: keys.auditEntry(ref.organizationId, ref.at, ref.requestId),
        UpdateExpression: 'SET repeats = if_not_exists(repeats, :one) + :one, last_at = :at, last_request_id = :rid',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':one': 1, ':at': last.at, ':rid': last.requestId },
      }),
    ),
  );
}

/**
 * One page of the organisation's audit log, newest first, between `from` and `to` (ISO, inclusive).
 * `after`: the sort key of the last entry of the previous page.
 */
export async function listAuditEntries(
  deps: Deps,
  organizationId: string,
  range: { from: string; to: string; after?: string; limit: number },
): Promise<{ entries: AuditEntry[]; last: string | null }> {
  const entries: AuditEntry[] = [];
  // Sort keys are `<iso>#<request id>`: every key of the range `to` sorts before `to` + '~'.
  let start: Record<string, unknown> | undefined = range.after ? { pk: keys.auditOf(organizationId).pk, sk: range.after } : undefined;
  do {
    const res: QueryCommandOutput = await deps.ddb.send(
      new QueryCommand({
        TableName: deps.config.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': keys.auditOf(organizationId).pk, ':from': range.from, ':to': `${range.to}~` },
        ScanIndexForward: false,
        Limit: range.limit - entries.length,
        ExclusiveStartKey: start,
      }),
    );
    entries.push(...(res.Items ?? []).map(auditFromRow));
    start = res.LastEvaluatedKey;
  } while (start && entries.length < range.limit);
  return { entries, last: start ? String(start.sk) : null };
}

// ---------- what stands in the way of deleting an organisation ----------

/**
 * Whether the application has an item in `environment` (one index read of at most one entry). Items
 * being connected are indexed elsewhere until they commit; a removed item's listing goes with its row.
 */
export async function applicationHasItems(deps: Deps, applicationId: string, environment: Environment): Promise<boolean> {
  const res = await deps.ddb.send(
    new QueryCommand({
      TableName: deps.config.tableName,
      IndexName: TABLE.globalIndexes[0].indexName,
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.itemByApplication(applicationId, environment, '', '').gsi1pk },
      ProjectionExpression: 'pk',
      Limit: 1,
    }),
  );
  return (res.Items ?? []).length > 0;
}
