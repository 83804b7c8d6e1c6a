// The organisation's audit log, for its admins and owners: every console action that changed
// something and every denied one (who, role, what, on what, when, from where), newest first,
// between two instants, a page at a time.
import type * as z from 'zod';
import type { ListAuditInput } from '../../contracts/console-schemas';
import { ApiError } from '../../contracts/errors';
import { listAuditEntries, AUDIT_RETENTION_DAYS, type AuditEntry } from '../../data/console-repo';
import type { Deps } from '../../platform/runtime';
import type { ConsoleActor } from './actor';
import { authorize } from './authorize';

const AUDIT_PAGE_DEFAULT = 50;

/** An audit entry's sort key: `<ISO timestamp>#<request id>`. */
const AUDIT_SORT_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z#[\w.:-]{1,128}$/;

/** The cursor names the last entry shown, and the organisation and range it was for. */
interface AuditCursor {
  o: string;
  after: string;
}

function encodeCursor(cursor: AuditCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(raw: string, organizationId: string): AuditCursor {
  try {
    const parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<AuditCursor>;
    if (parsed.o === organizationId && typeof parsed.after === 'string' && AUDIT_SORT_KEY.test(parsed.after)) return { o: parsed.o, after: parsed.after };
  } catch {
    // Not base64url JSON: the same answer as any other unusable cursor.
  }
  throw new ApiError('invalid_field', 'cursor: not a cursor of this organisation\'s audit log; start again without one.');
}

const publicEntry = (e: AuditEntry) => ({
  at: e.at,
  request_id: e.requestId,
  user_id: e.userId,
  email: e.email,
  role: e.role,
  action: e.action,
  target: e.target,
  outcome: e.outcome,
  reason: e.reason ?? null,
  client_address: e.clientAddress,
  user_agent: e.userAgent,
  // A denied entry may stand for a session's repeated denials of the action within a minute.
  repeats: e.repeats ?? 1,
  last_at: e.lastAt ?? null,
});

export async function listAudit(deps: Deps, actor: ConsoleActor, input: z.infer<typeof ListAuditInput>) {
  await authorize(deps, actor, input.organization_id, { action: 'console.audit.list' });
  const now = deps.clock.now();
  const from = input.from ? new Date(input.from).toISOString() : new Date(now - AUDIT_RETENTION_DAYS * 86_400_000).toISOString();
  const to = input.to ? new Date(input.to).toISOString() : new Date(now).toISOString();
  if (from > to) throw new ApiError('invalid_field', 'from must not be after to.');
  const after = input.cursor ? decodeCursor(input.cursor, input.organization_id).after : undefined;
  const page = await listAuditEntries(deps, input.organization_id, { from, to, after, limit: input.limit ?? AUDIT_PAGE_DEFAULT });
  return {
    entries: page.entries.map(publicEntry),
    next_cursor: page.last ? encodeCursor({ o: input.organization_id, after: page.last }) : null,
  };
}
