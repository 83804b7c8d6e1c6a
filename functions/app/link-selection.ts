// Link's account selection (link.accounts.select): the accounts the user chose after a connection,
// committed with the public token's release. It reaches no connector.
import { fail } from '../contracts/errors';
import type { RequestOf } from '../contracts/routes';
import { findInstitution } from '../core/institutions';
import { newEvent, publishEvent } from '../data/events';
import { commitAccountSelection, getItem, getItemForSelection, getPublicToken, listAccounts, type ItemRecord } from '../data/items-repo';
import { eventPut } from '../data/webhooks-repo';
import type { Deps } from '../platform/runtime';
import { connectedStep, queueHistoryLoad } from './link-connection';
import { openCompletedSession, type LinkCaller } from './link-session';
import { sharedAccounts } from './reads';

/**
 * POST /link/api/accounts/select: the accounts the user chose. One transaction limits the item's
 * consent to them and makes the public token exchangeable (commitAccountSelection), so a replayed
 * or concurrent selection has one outcome: the first commits, the others answer link_token_used.
 */
export async function submitAccountSelection(deps: Deps, body: RequestOf<'link.accounts.select'>, caller: LinkCaller) {
  const session = await openCompletedSession(deps, body.link_token, caller);
  const record = await getPublicToken(deps, body.public_token);
  // The public token must be the one this session issued (it names the session's item).
  if (!record || record.applicationId !== session.applicationId || record.environment !== session.environment || record.itemId !== session.completedItemId) fail('invalid_public_token');
  if (!record.selectionPending || record.spent) fail('link_token_used', 'The accounts of this connection were already chosen.');
  if (record.expiresAt <= deps.clock.now()) fail('link_token_expired');
  const item = (await getItemForSelection(deps, record.itemId)) ?? fail('invalid_item_id');
  // A new item's token (not a repair's, which rotates) chooses only while the item awaits its first
  // choice: once another of its tokens (a reloaded page's) made it, this one is spent with the link.
  if (!record.rotate && !item.awaitingSelection) fail('link_token_used', 'The accounts of this connection were already chosen.');
  const { accounts } = await listAccounts(deps, item.itemId);
  const known = new Set(accounts.map((a) => a.account_id));
  const unknown = body.account_ids.filter((id) => !known.has(id));
  if (unknown.length) fail('invalid_account_id', `Not accounts of this connection: ${unknown.slice(0, 5).join(', ')}.`);
  const chosen = [...body.account_ids].sort();
  const chosenItem: ItemRecord = { ...item, sharedAccountIds: chosen };
  const historyPending = item.transactionsUpdateStatus !== 'historical_update_complete';
  const announces = item.consentedProducts.includes('transactions');
  const events: ReturnType<typeof newEvent>[] = [];
  let rotateCursorSecret = false;
  if (item.awaitingSelection) {
    // A new item: its connection is announced now, not before (a statement's transactions are in
    // the feed already; a login's history is loaded from here on, and its events follow).
    if (announces && !historyPending) events.push(newEvent(deps, item, 'transactions.sync_updates_available', { item_id: item.itemId, initial_update_complete: true, historical_update_complete: true }));
  } else {
    // Update mode: an integrator's sync cursors predate the new choice. They are refused from now on
    // with the reason (functions/app/sync.ts), and the webhook tells the integrator to sync again.
    const before = sharedAccounts(item, accounts).map((a) => a.account_id).sort();
    rotateCursorSecret = before.join(',') !== chosen.join(',');
    if (rotateCursorSecret && announces) {
      events.push(
        newEvent(deps, item, 'transactions.sync_updates_available', {
          item_id: item.itemId,
          initial_update_complete: item.transactionsUpdateStatus !== 'not_ready',
          historical_update_complete: !historyPending,
        }),
      );
    }
  }
  const outcome = await commitAccountSelection(deps, {
    publicToken: body.public_token,
    item,
    accountIds: chosen,
    ...(item.awaitingSelection ? { activate: { firstRefreshDueAt: historyPending ? deps.clock.now() : undefined } } : {}),
    rotateCursorSecret,
    outbox: events.map((e) => eventPut(deps, e)),
  });
  if (outcome === 'token_refused') fail('link_token_used', 'The accounts of this connection were already chosen.');
  // A new item activated meanwhile by another of its tokens (the page was reloaded): chosen already.
  if (outcome === 'item_gone' && item.awaitingSelection && (await getItem(deps, item.itemId))) fail('link_token_used', 'The accounts of this connection were already chosen.');
  if (outcome === 'item_gone') fail('invalid_item_id');
  for (const e of events) await publishEvent(deps, e.eventId);
  if (item.awaitingSelection && historyPending) await queueHistoryLoad(deps, item.itemId);
  const institution = findInstitution(item.institutionId) ?? fail('institution_not_found');
  return connectedStep(session, institution, chosenItem, body.public_token, accounts);
}
