// What the signed-in member may do, from THE permission table (functions/core/console-permissions.ts,
// pure: the same module the server's authorize() applies). The UI uses it only to disable buttons
// and say why: the server decides, and its 403 role_forbidden is shown when the two disagree (a role
// changed since the page loaded, for one).
import { canPerform, type ConsoleActionId, type ConsoleRole, type ConsoleTarget } from '../../core/console-permissions';
import { withArticle } from './format';

export type { ConsoleActionId, ConsoleTarget };

export type UiPermission = { allowed: true } | { allowed: false; why: string };

export function permission(role: ConsoleRole | null, action: ConsoleActionId, target: ConsoleTarget = {}): UiPermission {
  if (role === null) return { allowed: false, why: 'You are not a member of this organisation.' };
  const verdict = canPerform(role, action, target);
  if (verdict.allowed) return { allowed: true };
  const needed = verdict.required === 'owner' ? 'Only an owner can do this' : `Needs the ${verdict.required} role or higher`;
  return { allowed: false, why: `${needed}; you are ${withArticle(role)}.` };
}
