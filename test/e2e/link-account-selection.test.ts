// Link's account selection over HTTP: a sandbox login with several accounts is connected through the
// page API with `account_selection`, the user keeps some of them, and then every read of the item
// (REST products, transactions get and sync with its removals, GraphQL, MCP and the Plaid surface)
// answers only those; an account_ids filter naming an unshared account is invalid_account_id. Also:
// the public token cannot be exchanged before the choice, a replayed or concurrent choice has one
// outcome, bad choices answer the error envelope, update mode shows the choice again only when the
// link token enables it, and items without a choice keep sharing every account.
import { assertMatchesOpenApi } from '../support/openapi-validator';
import { startReceiver, type Receiver } from '../support/receiver';
import { makeKey, startTestStack, type CallInit, type TestStack } from '../support/stack';

const testKey = makeKey('test');
const BANK = 'ins_sandbox_first_bank';
const ALL = ['transactions', 'identity', 'income', 'assets', 'investments', 'liabilities', 'recurring'];
const WIDE = { start_date: '2000-01-01', end_date: '2100-01-01' };

let stack: TestStack;
let receiver: Receiver;

beforeAll(async () => {
  stack = await startTestStack([{ application: 'Selection', plan: 'enterprise', keys: [testKey] }]);
  receiver = await startReceiver();
});
afterAll(async () => {
  await stack.stop();
  await receiver.close();
});

/** The events the receiver got at `path` (the item's webhook URL), in order. */
const eventsAt = (path: string) => receiver.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body) as { type: string; data: { item_id: string } });

async function post(path: string, body: unknown, init: CallInit = {}) {
  const res = await stack.call(path, { body, key: testKey, ...init });
  assertMatchesOpenApi('POST', path, res);
  return res;
}
const linkApi = (route: string, body: Record<string, unknown>) => post(`/link/api/${route}`, body, { key: null });

interface Choice {
  account_id: string;
  type: string;
}

async function linkToken(extra: Record<string, unknown> = {}): Promise<string> {
  const res = await post('/v1/link/token/create', { user: { client_user_id: 'user-1' }, products: ALL, ...extra });
  expect(res.status).toBe(200);
  return res.json.link_token as string;
}

/** Connects user_good through the page API asking for the selection: the select_accounts step. */
async function connectForSelection(username = 'user_good', extra: Record<string, unknown> = {}) {
  const token = await linkToken(extra);
  const res = await linkApi('connect', { link_token: token, institution_id: BANK, username, password: 'pass_good', account_selection: true });
  expect([res.status, res.json.status]).toEqual([200, 'select_accounts']);
  return { token, step: res.json as { public_token: string; item_id: string; accounts: Choice[]; selected_account_ids: string[] } };
}

/** A connected item whose user kept `keep(accounts)`, exchanged, with its history loaded. */
async function connectedWith(keep: (accounts: Choice[]) => Choice[], username = 'user_good') {
  const { token, step } = await connectForSelection(username);
  const chosen = keep(step.accounts).map((a) => a.account_id);
  const selected = await linkApi('accounts/select', { link_token: token, public_token: step.public_token, account_ids: chosen });
  expect([selected.status, selected.json.status]).toEqual([200, 'connected']);
  const exchanged = await post('/v1/link/token/exchange', { public_token: step.public_token });
  expect(exchanged.status).toBe(200);
  await stack.historyLoaded(step.item_id);
  return { accessToken: exchanged.json.access_token as string, itemId: step.item_id, chosen, all: step.accounts, selected: selected.json };
}

/** The same login connected without a choice (the sandbox helper): every account shared. */
async function sharingAll(username = 'user_good') {
  const pt = await post('/v1/sandbox/public_token/create', { institution_id: BANK, products: ALL, username });
  const exchanged = await post('/v1/link/token/exchange', { public_token: pt.json.public_token });
  await stack.historyLoaded(exchanged.json.item_id as string);
  return exchanged.json.access_token as string;
}

async function syncAll(accessToken: string, cursor?: string) {
  const added: Array<{ transaction_id: string; account_id: string }> = [];
  const modified: Array<{ transaction_id: string; account_id: string }> = [];
  const removed: string[] = [];
  let next = cursor;
  for (;;) {
    const page = await post('/v1/transactions/sync', { access_token: accessToken, count: 500, ...(next ? { cursor: next } : {}) });
    expect(page.status).toBe(200);
    added.push(...page.json.added);
    modified.push(...page.json.modified);
    removed.push(...page.json.removed.map((r: { transaction_id: string }) => r.transaction_id));
    next = page.json.next_cursor as string;
    if (!page.json.has_more) return { added, modified, removed, cursor: next };
  }
}

const accountIdsIn = (value: unknown): Set<string> => {
  const found = new Set<string>();
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) {
      for (const [k, inner] of Object.entries(v)) {
        if (k === 'account_id' && typeof inner === 'string') found.add(inner);
        else walk(inner);
      }
    }
  };
  walk(value);
  return found;
};

describe('account selection', () => {
  it('offers every account preselected, and the public token cannot be exchanged before the choice', async () => {
    const { step } = await connectForSelection();
    expect(step.accounts.length).toBeGreaterThanOrEqual(3);
    expect(step.selected_account_ids).toEqual(step.accounts.map((a) => a.account_id).sort());
    const early = await post('/v1/link/token/exchange', { public_token: step.public_token });
    expect([early.status, early.json.error.code]).toEqual([400, 'invalid_public_token']);
  });

  it('limits accounts/get, balances and every product to the chosen accounts; success metadata carries only them', async () => {
    // Keep the depository accounts and one other type: a credit card, a loan or an investment account is left out.
    const { accessToken, chosen, all, selected } = await connectedWith((accounts) => accounts.filter((a) => a.type === 'depository' || a.type === 'investment'));
    const unchosen = all.map((a) => a.account_id).filter((id) => !chosen.includes(id));
    expect(chosen.length).toBeGreaterThan(0);
    expect(unchosen.length).toBeGreaterThan(0);
    expect(selected.metadata.accounts.map((a: Choice) => a.account_id).sort()).toEqual([...chosen].sort());

    const allowed = new Set(chosen);
    const reads: Array<[string, Record<string, unknown>]> = [
      ['/v1/accounts/get', {}],
      ['/v1/accounts/balance/get', {}],
      ['/v1/transactions/get', { ...WIDE, options: { count: 500 } }],
      ['/v1/identity/get', {}],
      ['/v1/liabilities/get', {}],
      ['/v1/investments/holdings/get', {}],
      ['/v1/investments/transactions/get', { options: { count: 500 } }],
      ['/v1/assets/get', {}],
      ['/v1/recurring/get', {}],
      ['/v1/income/get', {}],
    ];
    for (const [path, extra] of reads) {
      const res = await post(path, { access_token: accessToken, ...extra });
      expect([path, res.status]).toEqual([path, 200]);
      for (const id of accountIdsIn(res.json)) expect([path, allowed.has(id)]).toEqual([path, true]);
    }
    const accounts = await post('/v1/accounts/get', { access_token: accessToken });
    expect(accounts.json.accounts.map((a: Choice) => a.account_id).sort()).toEqual([...chosen].sort());

    // Counts too: transactions/get's total is the chosen accounts' share of the login's transactions.
    const everything = await sharingAll();
    const full = await post('/v1/transactions/get', { access_token: everything, ...WIDE, options: { count: 1 } });
    const limited = await post('/v1/transactions/get', { access_token: accessToken, ...WIDE, options: { count: 1 } });
    const perAccount = await Promise.all(chosen.map((id) => post('/v1/transactions/get', { access_token: everything, ...WIDE, options: { count: 1, account_ids: [id] } })));
    expect(limited.json.total_transactions).toBe(perAccount.reduce((n, r) => n + (r.json.total_transactions as number), 0));
    expect(limited.json.total_transactions).toBeLessThan(full.json.total_transactions);

    // An unshared account is an unknown one to every account_ids filter.
    for (const [path, body] of [
      ['/v1/accounts/get', { options: { account_ids: [unchosen[0]] } }],
      ['/v1/accounts/balance/get', { options: { account_ids: [chosen[0], unchosen[0]] } }],
      ['/v1/transactions/get', { ...WIDE, options: { account_ids: [unchosen[0]] } }],
    ] as const) {
      const res = await post(path, { access_token: accessToken, ...body });
      expect([path, res.status, res.json.error.code]).toEqual([path, 400, 'invalid_account_id']);
    }
  });

  it('transactions/sync serves only the chosen accounts, removals included, across refreshes', async () => {
    // The credit card is left out: the sandbox's refreshes add and drop pending card purchases there.
    const limited = await connectedWith((accounts) => accounts.filter((a) => a.type !== 'credit'), 'user_good_syncsel');
    const everything = await sharingAll('user_good_syncsel');
    const allowed = new Set(limited.chosen);
    const first = await syncAll(limited.accessToken);
    const firstAll = await syncAll(everything);
    const accountOf = new Map(firstAll.added.map((t) => [t.transaction_id, t.account_id]));
    expect(first.added.length).toBeGreaterThan(0);
    expect(first.added.every((t) => allowed.has(t.account_id))).toBe(true);
    expect(first.added.length).toBe(firstAll.added.filter((t) => allowed.has(t.account_id)).length);

    let limitedCursor = first.cursor;
    let allCursor = firstAll.cursor;
    let removedElsewhere = 0;
    for (let refresh = 0; refresh < 3; refresh += 1) {
      await post('/v1/items/refresh', { access_token: limited.accessToken });
      await post('/v1/items/refresh', { access_token: everything });
      await stack.background.idle();
      const page = await syncAll(limited.accessToken, limitedCursor);
      const pageAll = await syncAll(everything, allCursor);
      for (const t of [...pageAll.added, ...pageAll.modified]) accountOf.set(t.transaction_id, t.account_id);
      expect([...page.added, ...page.modified].every((t) => allowed.has(t.account_id))).toBe(true);
      // Every removal served is one of a chosen account; the login's other removals are not served.
      for (const id of page.removed) expect(allowed.has(accountOf.get(id) ?? '')).toBe(true);
      expect(page.removed.sort()).toEqual(pageAll.removed.filter((id) => allowed.has(accountOf.get(id) ?? '')).sort());
      removedElsewhere += pageAll.removed.filter((id) => !allowed.has(accountOf.get(id) ?? '')).length;
      limitedCursor = page.cursor;
      allCursor = pageAll.cursor;
    }
    // The refreshes did remove transactions of the account left out (what the filter is for).
    expect(removedElsewhere).toBeGreaterThan(0);
  });

  it('GraphQL, MCP and the Plaid surface run the same reads: only the chosen accounts', async () => {
    const { accessToken, chosen } = await connectedWith((accounts) => accounts.slice(0, 2));
    const allowed = new Set(chosen);

    const gql = await stack.call('/v1/graphql', {
      key: testKey,
      body: {
        query: `query($t: String!) { item(access_token: $t) { accounts { account_id } transactions(start_date: "2000-01-01", end_date: "2100-01-01", count: 500) { transactions { account_id } } transactions_sync(count: 500) { added { account_id } } } }`,
        variables: { t: accessToken },
      },
    });
    expect(gql.status).toBe(200);
    expect(gql.json.errors).toBeUndefined();
    expect(gql.json.data.item.accounts.map((a: Choice) => a.account_id).sort()).toEqual([...chosen].sort());
    for (const id of accountIdsIn(gql.json.data)) expect(allowed.has(id)).toBe(true);

    const mcp = await fetch(`${stack.baseUrl}/mcp`, {
      method: 'POST',
      headers: { Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json', Authorization: `Bearer ${testKey}`, 'Mcp-Protocol-Version': '2025-03-26' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_accounts', arguments: { access_token: accessToken } } }),
    });
    const answer = (await mcp.json()) as { result: { isError?: boolean; structuredContent?: unknown; content: Array<{ text?: string }> } };
    expect(answer.result.isError).toBeFalsy();
    const listed = accountIdsIn(answer.result.structuredContent ?? JSON.parse(answer.result.content[0].text ?? '{}'));
    expect([...listed].sort()).toEqual([...chosen].sort());

    const plaid = await fetch(`${stack.baseUrl}/plaid/accounts/get`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'PLAID-CLIENT-ID': stack.keys[0].applicationId, 'PLAID-SECRET': testKey },
      body: JSON.stringify({ access_token: accessToken }),
    });
    expect(plaid.status).toBe(200);
    const plaidAccounts = ((await plaid.json()) as { accounts: Choice[] }).accounts;
    expect(plaidAccounts.map((a) => a.account_id).sort()).toEqual([...chosen].sort());
  });

  it('a replayed or concurrent choice has one outcome', async () => {
    const { token, step } = await connectForSelection();
    const ids = step.accounts.map((a) => a.account_id);
    const [a, b] = await Promise.all([
      linkApi('accounts/select', { link_token: token, public_token: step.public_token, account_ids: [ids[0]] }),
      linkApi('accounts/select', { link_token: token, public_token: step.public_token, account_ids: [ids[1]] }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 400]);
    const winner = a.status === 200 ? a : b;
    const loser = a.status === 200 ? b : a;
    expect(loser.json.error.code).toBe('link_token_used');
    const replay = await linkApi('accounts/select', { link_token: token, public_token: step.public_token, account_ids: ids });
    expect([replay.status, replay.json.error.code]).toEqual([400, 'link_token_used']);
    const exchanged = await post('/v1/link/token/exchange', { public_token: step.public_token });
    const accounts = await post('/v1/accounts/get', { access_token: exchanged.json.access_token });
    expect(accounts.json.accounts.map((x: Choice) => x.account_id)).toEqual(winner.json.metadata.accounts.map((x: Choice) => x.account_id));
    expect(accounts.json.accounts).toHaveLength(1);
  });

  it('refuses bad choices with the error envelope and changes nothing', async () => {
    const { token, step } = await connectForSelection();
    const ids = step.accounts.map((a) => a.account_id);
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['empty', { account_ids: [] }, 'invalid_field'],
      ['unknown id', { account_ids: [ids[0], 'acc_not_of_this_item'] }, 'invalid_account_id'],
      ['duplicates', { account_ids: [ids[0], ids[0]] }, 'invalid_field'],
      ['10,000 ids', { account_ids: Array.from({ length: 10_000 }, (_, i) => `acc_${i}`) }, 'invalid_field'],
      ['another public token', { account_ids: [ids[0]], public_token: 'fc_pub_notissued' }, 'invalid_public_token'],
    ];
    for (const [name, body, code] of cases) {
      const res = await linkApi('accounts/select', { link_token: token, public_token: step.public_token, ...body });
      expect([name, res.status, res.json.error.code]).toEqual([name, 400, code]);
      expect(res.json.error.message).toMatch(/\S/);
    }
    // Still awaiting its choice: the token is not exchangeable, and a good choice still works.
    expect((await post('/v1/link/token/exchange', { public_token: step.public_token })).status).toBe(400);
    const ok = await linkApi('accounts/select', { link_token: token, public_token: step.public_token, account_ids: ids });
    expect(ok.status).toBe(200);
  });

  it('a step without account_selection shares every account, as before', async () => {
    const token = await linkToken();
    const res = await linkApi('connect', { link_token: token, institution_id: BANK, username: 'user_good', password: 'pass_good' });
    expect(res.json.status).toBe('connected');
    const exchanged = await post('/v1/link/token/exchange', { public_token: res.json.public_token });
    const accounts = await post('/v1/accounts/get', { access_token: exchanged.json.access_token });
    expect(accounts.json.accounts.map((a: Choice) => a.account_id).sort()).toEqual(res.json.metadata.accounts.map((a: Choice) => a.account_id).sort());
    expect(accounts.json.accounts.length).toBeGreaterThanOrEqual(3);
  });

  it('update mode shows the choice again (current choice preselected) only with update.account_selection_enabled', async () => {
    const { accessToken, itemId, chosen, all } = await connectedWith((accounts) => accounts.slice(0, 1));
    // Without the flag: the repair keeps the choice and answers connected with it.
    const plain = await linkToken({ update_item_id: itemId });
    const repaired = await linkApi('connect', { link_token: plain, institution_id: BANK, username: 'user_good', password: 'pass_good', account_selection: true });
    expect(repaired.json.status).toBe('connected');
    expect(repaired.json.metadata.accounts.map((a: Choice) => a.account_id)).toEqual(chosen);
    const rotated = await post('/v1/link/token/exchange', { public_token: repaired.json.public_token });

    const enabled = await linkToken({ update_item_id: itemId, update: { account_selection_enabled: true } });
    const step = await linkApi('connect', { link_token: enabled, institution_id: BANK, username: 'user_good', password: 'pass_good', account_selection: true });
    expect(step.json.status).toBe('select_accounts');
    expect(step.json.selected_account_ids).toEqual(chosen);
    expect(step.json.accounts).toHaveLength(all.length);
    const everyAccount = all.map((a) => a.account_id);
    const done = await linkApi('accounts/select', { link_token: enabled, public_token: step.json.public_token, account_ids: everyAccount });
    expect(done.status).toBe(200);
    // The new choice applies to the item at once, whichever access token reads it.
    const after = await post('/v1/accounts/get', { access_token: rotated.json.access_token });
    expect(after.json.accounts.map((a: Choice) => a.account_id).sort()).toEqual([...everyAccount].sort());
    expect((await post('/v1/accounts/get', { access_token: accessToken })).status).toBe(400);
  });
});

interface Owner {
  names: string[];
  account_ids: string[];
}

describe('account selection: what the choice leaves out stays out', () => {
  it('identity lists only the chosen accounts and drops an owner left with none, in REST and GraphQL', async () => {
    // A login whose savings account has a joint owner (the sandbox gives some logins one).
    let username = '';
    let everyOwner: Owner[] = [];
    for (const candidate of ['user_good', ...Array.from({ length: 12 }, (_, i) => `user_good_joint${i}`)]) {
      const pt = await post('/v1/sandbox/public_token/create', { institution_id: BANK, products: ['identity'], username: candidate });
      const exchanged = await post('/v1/link/token/exchange', { public_token: pt.json.public_token });
      const identity = await post('/v1/identity/get', { access_token: exchanged.json.access_token });
      everyOwner = identity.json.identity.owners as Owner[];
      if (everyOwner.length > 1) {
        username = candidate;
        break;
      }
    }
    expect(username).not.toBe('');
    const jointOnly = new Set(everyOwner[1].account_ids);
    const { accessToken, chosen } = await connectedWith((accounts) => accounts.filter((a) => !jointOnly.has(a.account_id)), username);
    expect(chosen.length).toBeGreaterThan(0);

    const rest = await post('/v1/identity/get', { access_token: accessToken });
    expect(rest.status).toBe(200);
    const owners = rest.json.identity.owners as Owner[];
    expect(owners.map((o) => o.names)).toEqual([everyOwner[0].names]);
    expect([...owners[0].account_ids].sort()).toEqual([...chosen].sort());

    const gql = await stack.call('/v1/graphql', {
      key: testKey,
      body: { query: 'query($t: String!) { item(access_token: $t) { identity { identity { owners { names account_ids } } } } }', variables: { t: accessToken } },
    });
    expect(gql.json.errors).toBeUndefined();
    const gqlOwners = gql.json.data.item.identity.identity.owners as Owner[];
    expect(gqlOwners.map((o) => o.names)).toEqual([everyOwner[0].names]);
    expect([...gqlOwners[0].account_ids].sort()).toEqual([...chosen].sort());
  });
});

describe('account selection: changing the choice, and a choice that never comes', () => {
  it('update mode: a new choice refuses cursors issued before it with the reason, sends the sync webhook, and accounts/get follows', async () => {
    const first = await connectedWith((accounts) => accounts.filter((a) => a.type === 'depository').slice(0, 1), 'user_good_rechoose');
    const before = await syncAll(first.accessToken);
    expect(before.added.length).toBeGreaterThan(0);
    // Another deposit account (savings beside checking): one with a transaction history of its own.
    const other = first.all.find((a) => !first.chosen.includes(a.account_id) && a.type === 'depository');
    if (!other) throw new Error('the sandbox login has a single deposit account');

    const enabled = await linkToken({ update_item_id: first.itemId, update: { account_selection_enabled: true }, webhook: receiver.url('/rechoose') });
    const step = await linkApi('connect', { link_token: enabled, institution_id: BANK, username: 'user_good_rechoose', password: 'pass_good', account_selection: true });
    expect(step.json.status).toBe('select_accounts');
    await stack.background.idle();
    const heardBefore = eventsAt('/rechoose').length;
    const done = await linkApi('accounts/select', { link_token: enabled, public_token: step.json.public_token, account_ids: [other.account_id] });
    expect(done.status).toBe(200);
    await stack.background.idle();

    // The integrator is told to sync...
    const heard = eventsAt('/rechoose').slice(heardBefore);
    expect(heard.map((e) => [e.type, e.data.item_id])).toEqual([['transactions.sync_updates_available', first.itemId]]);
    // ...and its stored cursor, which delivered the old account's rows, is refused with the reason.
    const stale = await post('/v1/transactions/sync', { access_token: first.accessToken, cursor: before.cursor });
    expect([stale.status, stale.json.error.code]).toEqual([400, 'invalid_cursor']);
    expect(stale.json.error.message).toMatch(/accounts this item shares changed.*without a cursor/);
    // Syncing again from the start serves exactly the newly shared account.
    const fresh = await syncAll(first.accessToken);
    expect(fresh.added.length).toBeGreaterThan(0);
    expect(new Set(fresh.added.map((t) => t.account_id))).toEqual(new Set([other.account_id]));
    const fromFresh = await syncAll(first.accessToken, fresh.cursor);
    expect(fromFresh.added).toEqual([]);
    const accounts = await post('/v1/accounts/get', { access_token: first.accessToken });
    expect(accounts.json.accounts.map((a: Choice) => a.account_id)).toEqual([other.account_id]);
  });

  it('update mode keeping the same accounts leaves cursors valid', async () => {
    const first = await connectedWith((accounts) => accounts.slice(0, 2), 'user_good_samechoice');
    const before = await syncAll(first.accessToken);
    const enabled = await linkToken({ update_item_id: first.itemId, update: { account_selection_enabled: true } });
    const step = await linkApi('connect', { link_token: enabled, institution_id: BANK, username: 'user_good_samechoice', password: 'pass_good', account_selection: true });
    const done = await linkApi('accounts/select', { link_token: enabled, public_token: step.json.public_token, account_ids: first.chosen });
    expect(done.status).toBe(200);
    const page = await post('/v1/transactions/sync', { access_token: first.accessToken, cursor: before.cursor });
    expect(page.status).toBe(200);
  });

  it('a new item awaiting its choice is invisible and announces nothing until the choice, then loads and announces its history', async () => {
    const { token, step } = await connectForSelection('user_good_pending', { webhook: receiver.url('/pending') });
    await stack.background.idle();
    expect(eventsAt('/pending')).toEqual([]);

    const done = await linkApi('accounts/select', { link_token: token, public_token: step.public_token, account_ids: step.accounts.slice(0, 2).map((a) => a.account_id) });
    expect(done.status).toBe(200);
    const exchanged = await post('/v1/link/token/exchange', { public_token: step.public_token });
    expect(exchanged.status).toBe(200);
    await stack.historyLoaded(step.item_id);
    const heard = eventsAt('/pending');
    expect(heard.length).toBeGreaterThan(0);
    expect(heard.every((e) => e.type === 'transactions.sync_updates_available' && e.data.item_id === step.item_id)).toBe(true);
    const item = await post('/v1/items/get', { access_token: exchanged.json.access_token });
    expect(item.json.item.status).toBe('healthy');
  });

  it('a page reloaded at the choice opens at the choice again, with a token of its own; one choice wins', async () => {
    const { token, step } = await connectForSelection('user_good_reload');
    const reload = async () => {
      const page = await fetch(`${stack.baseUrl}/link?token=${encodeURIComponent(token)}`);
      const html = await page.text();
      const config = /<script type="application\/json" id="fc-link-config">([\s\S]*?)<\/script>/.exec(html);
      return { status: page.status, config: config ? (JSON.parse(config[1]) as { selectionStep: typeof step | null }) : null };
    };
    const again = await reload();
    expect(again.status).toBe(200);
    const resumed = again.config!.selectionStep!;
    expect(resumed.item_id).toBe(step.item_id);
    expect(resumed.accounts.map((a) => a.account_id)).toEqual(step.accounts.map((a) => a.account_id));
    expect(resumed.public_token).not.toBe(step.public_token);

    const chosen = [step.accounts[0].account_id];
    const done = await linkApi('accounts/select', { link_token: token, public_token: resumed.public_token, account_ids: chosen });
    expect([done.status, done.json.status]).toEqual([200, 'connected']);
    // The first page's token cannot choose again, nor be exchanged; the link is spent for good now.
    const late = await linkApi('accounts/select', { link_token: token, public_token: step.public_token, account_ids: step.accounts.map((a) => a.account_id) });
    expect([late.status, late.json.error.code]).toEqual([400, 'link_token_used']);
    expect((await post('/v1/link/token/exchange', { public_token: step.public_token })).status).toBe(400);
    expect((await reload()).status).toBe(400);
    const exchanged = await post('/v1/link/token/exchange', { public_token: resumed.public_token });
    const accounts = await post('/v1/accounts/get', { access_token: exchanged.json.access_token });
    expect(accounts.json.accounts.map((a: Choice) => a.account_id)).toEqual(chosen);
  });
});
