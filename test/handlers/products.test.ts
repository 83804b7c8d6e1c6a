// Recurring and income stored per item under the version of their inputs (committed_seq, date,
// rules): repeat reads are one Query, any change recomputes once, and concurrent reads and
// ingestions never serve or store a product under the wrong version.
import { PutCommand, type DynamoDbDocumentClient } from '../../functions/platform/aws/dynamodb';
import { gzipSync } from 'node:zlib';
import { READ_AFTER_SYNC_MS, REFRESH_HOOKS } from '../../functions/app/derived-products';
import { refreshItem } from '../../functions/app/lifecycle';
import { createSandboxPublicToken, exchangePublicToken } from '../../functions/app/link';
import { DERIVATION_RULES_VERSION, assetsOf, holdingsOf, identityOf, incomeOf, investmentTransactionsOf, liabilitiesOf, recurringOf } from '../../functions/app/products';
import { detectIncome } from '../../functions/core/income';
import { detectRecurring } from '../../functions/core/recurring';
import { queryByPrefix } from '../../functions/data/dynamo';
import { commitTransactions, currentTransactions, type StoredTransaction } from '../../functions/data/feed-repo';
import { generateSandboxItem } from '../../functions/core/sandbox/generator';
import { getItem, purgeRemovedItem, putAccounts, removeItem, type ItemRecord } from '../../functions/data/items-repo';
import { keys } from '../../functions/data/keys';
import { MAX_PARTS, productVersion, readStoredProduct, storeProduct } from '../../functions/data/products-repo';
import type { Deps } from '../../functions/platform/runtime';
import { createTestItem, embeddedDeps } from '../support/embedded';
import { runQueuedHistoryLoad } from '../support/readiness';
import { CARD, CHECKING, months, transactionBuilder, ymd } from '../support/histories';
import { testAuth } from '../support/test-auth';

const DAY = 86_400_000;
const today = (deps: Deps) => new Date(deps.clock.now()).toISOString().slice(0, 10);

/** A year of payroll, a subscription and a bill, ending the month before the test clock's date. */
function history(prefix: string): StoredTransaction[] {
  const build = transactionBuilder(CHECKING);
  const txn: typeof build = (...args) => {
    const t = build(...args);
    return { ...t, transaction_id: `${prefix}_${t.transaction_id}` };
  };
  const rows: StoredTransaction[] = [];
  for (const [y, m] of months(2025, 11, 12)) {
    rows.push(txn(ymd(y, m, 15), -2450, `PAYROLL ACME CORP PPD ID: ${y}${m}15`, { detailed: 'income_wages' }));
    rows.push(txn(ymd(y, m, 28), -2450, `PAYROLL ACME CORP PPD ID: ${y}${m}28`, { detailed: 'income_wages' }));
    rows.push(txn(ymd(y, m, 9), 15.49, 'NETFLIX.COM', { merchant: 'Netflix', detailed: 'entertainment_streaming', account: CARD }));
    rows.push(txn(ymd(y, m, 21), 80 + ((m * 37) % 40), 'CITY POWER AND LIGHT', { merchant: 'City Power', detailed: 'rent_and_utilities_gas_and_electricity' }));
  }
  return rows;
}

/** Six monthly charges of a new subscription: a stream the history above does not have. */
const spotify = (prefix: string) =>
  months(2026, 5, 6).map(([y, m], i) => ({
    ...transactionBuilder(CARD)(ymd(y, m, 4), 11.99, 'SPOTIFY USA'),
    transaction_id: `${prefix}_spotify_${i}`,
    merchant_name: 'Spotify',
    category: 'entertainment',
    category_detailed: 'entertainment_streaming',
  }));

const upserts = (txns: StoredTransaction[]) => txns.map((txn) => ({ txnId: txn.transaction_id, txn }));

async function itemWithHistory(deps: Deps, itemId: string): Promise<ItemRecord> {
  await createTestItem(deps, itemId, { consentedProducts: ['transactions', 'recurring', 'income'] });
  await commitTransactions(deps, itemId, upserts(history(itemId)));
  return (await getItem(deps, itemId))!;
}

/** What recurring/get must answer for the item as of its committed_seq and the clock's date. */
async function expectedRecurring(deps: Deps, item: ItemRecord) {
  return detectRecurring(await currentTransactions(deps, item.itemId, item.committedSeq), today(deps));
}

const productRows = async (deps: Deps, itemId: string) => queryByPrefix(deps, keys.item(itemId).pk, 'PRODUCT#');
const storedVersion = async (deps: Deps, itemId: string, product: string) =>
  (await productRows(deps, itemId)).find((r) => r.sk === keys.productPart(itemId, product, 0).sk)?.version;
const versionOf = (deps: Deps, item: ItemRecord) => productVersion({ committedSeq: item.committedSeq, today: today(deps), rules: DERIVATION_RULES_VERSION });

/** DynamoDB calls `run` makes. */
async function callsOf<T>(deps: Deps, run: () => Promise<T>): Promise<{ result: T; calls: number }> {
  const before = deps.ddbCalls.count;
  const result = await run();
  return { result, calls: deps.ddbCalls.count - before };
}

/** The same table through a client whose `send` goes through `intercept` first. */
function intercepted(deps: Deps, intercept: (input: object, send: () => Promise<unknown>) => Promise<unknown>): Deps {
  const send = deps.ddb.send.bind(deps.ddb);
  const ddb = {
    send: (command: Parameters<typeof send>[0]) => intercept(command.input as object, () => send(command)),
  } as unknown as DynamoDbDocumentClient;
  return { ...deps, ddb };
}

describe('stored recurring and income', () => {
  it('answers a repeat read with one Query of the stored row, the same product the first read computed', async () => {
    const deps = await embeddedDeps();
    const item = await itemWithHistory(deps, 'item_repeat');
    const expected = await expectedRecurring(deps, item);
    expect(expected.map((s) => s.kind).sort()).toEqual(['bill', 'payroll', 'subscription']);

    const first = await callsOf(deps, () => recurringOf(deps, item));
    expect(first.result.recurring_streams).toEqual(expected);
    // product rows, the feed, the conditional put, the item-still-exists check
    expect(first.calls).toBeGreaterThanOrEqual(4);
    const repeat = await callsOf(deps, () => recurringOf(deps, item));
    expect(repeat).toEqual({ result: { recurring_streams: expected }, calls: 1 });

    const income = await callsOf(deps, () => incomeOf(deps, item));
    expect(income.result.income_streams).toEqual(detectIncome(await currentTransactions(deps, item.itemId, item.committedSeq), today(deps)));
    expect(await callsOf(deps, () => incomeOf(deps, item))).toEqual({ result: income.result, calls: 1 });
  });

  it('recomputes once after an ingestion commits a change and once after the date moves, never serving the older row', async () => {
    const deps = await embeddedDeps();
    let item = await itemWithHistory(deps, 'item_changes');
    const before = (await recurringOf(deps, item)).recurring_streams;

    await commitTransactions(deps, item.itemId, upserts(spotify(item.itemId)));
    item = (await getItem(deps, item.itemId))!;
    const afterIngestion = (await recurringOf(deps, item)).recurring_streams;
    expect(afterIngestion).toEqual(await expectedRecurring(deps, item));
    expect(afterIngestion.filter((s) => s.merchant_name === 'Spotify')).toHaveLength(1);
    expect(before.filter((s) => s.merchant_name === 'Spotify')).toHaveLength(0);
    expect(await storedVersion(deps, item.itemId, 'recurring')).toBe(versionOf(deps, item));

    // Half a year later nothing has been charged since: every stream has stopped.
    deps.clock.advance(200 * DAY);
    const later = (await recurringOf(deps, item)).recurring_streams;
    expect(later).toEqual(await expectedRecurring(deps, item));
    expect(afterIngestion.some((s) => s.is_active)).toBe(true);
    expect(later.every((s) => !s.is_active)).toBe(true);
    expect(await storedVersion(deps, item.itemId, 'recurring')).toBe(versionOf(deps, item));
  });

  it('a read during an ingestion answers and stores the committed snapshot; a slower reader never replaces a newer row', async () => {
    const deps = await embeddedDeps();
    const atS = await itemWithHistory(deps, 'item_during');
    const expectedAtS = await expectedRecurring(deps, atS);

    // An ingestion that has written its new entries but not yet published its committed_seq.
    let reachedCommit!: () => void;
    const commitReached = new Promise<void>((resolve) => (reachedCommit = resolve));
    let releaseCommit!: () => void;
    const commitReleased = new Promise<void>((resolve) => (releaseCommit = resolve));
    const ingestingDeps = intercepted(deps, async (input, send) => {
      if (JSON.stringify(input).includes('committed_seq = ')) {
        reachedCommit();
        await commitReleased;
      }
      return send();
    });
    const ingestion = commitTransactions(ingestingDeps, atS.itemId, upserts(spotify(atS.itemId)));
    await commitReached;

    expect((await getItem(deps, atS.itemId))!.committedSeq).toBe(atS.committedSeq);
    expect((await recurringOf(deps, atS)).recurring_streams).toEqual(expectedAtS);
    expect(await storedVersion(deps, atS.itemId, 'recurring')).toBe(versionOf(deps, atS));

    releaseCommit();
    await ingestion;
    const atNext = (await getItem(deps, atS.itemId))!;
    expect(atNext.committedSeq).toBe(atS.committedSeq + 1);
    const expectedAtNext = await expectedRecurring(deps, atNext);
    expect(expectedAtNext).not.toEqual(expectedAtS);
    expect((await recurringOf(deps, atNext)).recurring_streams).toEqual(expectedAtNext);
    expect(await storedVersion(deps, atS.itemId, 'recurring')).toBe(versionOf(deps, atNext));

    // A request that loaded the item before the commit still answers its own snapshot, and leaves
    // the newer row in place.
    expect((await recurringOf(deps, atS)).recurring_streams).toEqual(expectedAtS);
    expect(await storedVersion(deps, atS.itemId, 'recurring')).toBe(versionOf(deps, atNext));
    expect(await callsOf(deps, () => recurringOf(deps, atNext))).toEqual({ result: { recurring_streams: expectedAtNext }, calls: 1 });
  });

  it('a request that loaded the item before an ingestion committed stores its product under its own snapshot', async () => {
    const deps = await embeddedDeps();
    const atS = await itemWithHistory(deps, 'item_loaded_before');
    const expectedAtS = await expectedRecurring(deps, atS);
    await commitTransactions(deps, atS.itemId, upserts(spotify(atS.itemId)));
    const atNext = (await getItem(deps, atS.itemId))!;

    expect((await recurringOf(deps, atS)).recurring_streams).toEqual(expectedAtS);
    expect(await storedVersion(deps, atS.itemId, 'recurring')).toBe(versionOf(deps, atS));
    const expectedAtNext = await expectedRecurring(deps, atNext);
    expect(expectedAtNext).not.toEqual(expectedAtS);
    expect((await recurringOf(deps, atNext)).recurring_streams).toEqual(expectedAtNext);
  });

  it('two concurrent stale reads both answer the product, and it is stored once under its version', async () => {
    const deps = await embeddedDeps();
    const item = await itemWithHistory(deps, 'item_concurrent');
    const expected = await expectedRecurring(deps, item);
    const [a, b] = await Promise.all([recurringOf(deps, item), recurringOf(deps, item)]);
    expect(a.recurring_streams).toEqual(expected);
    expect(b.recurring_streams).toEqual(expected);
    const rows = await productRows(deps, item.itemId);
    expect(rows.map((r) => [r.sk, r.version ?? r.served_version])).toEqual([
      [keys.productPart(item.itemId, 'recurring', 0).sk, versionOf(deps, item)],
      // and the marker that the version was served
      [keys.productServed(item.itemId, 'recurring').sk, versionOf(deps, item)],
    ]);
  });

  it('answers the computed product when storing it fails', async () => {
    const deps = await embeddedDeps();
    const item = await itemWithHistory(deps, 'item_store_fails');
    const failingWrites = intercepted(deps, async (input, send) => {
      if ('Item' in input) throw new Error('throttled');
      return send();
    });
    expect((await recurringOf(failingWrites, item)).recurring_streams).toEqual(await expectedRecurring(deps, item));
    expect(await productRows(deps, item.itemId)).toEqual([]);
  });
});

describe('computed at ingestion for the items whose products are read', () => {
  /**
   * A refresh's commit as the worker makes it: new transactions, then the worker's hook with the item
   * as it was, whose previous sync was `syncedAgoMs` before now (the reads above follow it closely).
   */
  async function refreshCommit(deps: Deps, before: ItemRecord, txns: StoredTransaction[], syncedAgoMs = 60_000) {
    const result = await commitTransactions(deps, before.itemId, upserts(txns));
    expect(result.committedSeq).not.toBeNull();
    const lastSuccessfulSync = new Date(deps.clock.now() - syncedAgoMs).toISOString();
    const computed = await REFRESH_HOOKS.afterCommit!(deps, { ...before, lastSuccessfulSync }, result.committedSeq!);
    return { computed, item: (await getItem(deps, before.itemId))! };
  }

  it('a product served before the commit is computed by the refresh: the read after the sync is one Query, no feed read', async () => {
    const deps = await embeddedDeps();
    const item = await itemWithHistory(deps, 'item_precomputed');
    await recurringOf(deps, item);
    const { computed, item: after } = await refreshCommit(deps, item, spotify(item.itemId));
    // Only recurring was read; income is left to its first read.
    expect(computed).toEqual(['recurring']);
    expect(await storedVersion(deps, item.itemId, 'recurring')).toBe(versionOf(deps, after));
    let feedReads = 0;
    const watched = intercepted(deps, (input, send) => {
      if (JSON.stringify(input).includes('"FEED#')) feedReads += 1;
      return send();
    });
    const read = await callsOf(watched, () => recurringOf(watched, after));
    expect(read.result.recurring_streams).toEqual(await expectedRecurring(deps, after));
    expect(read.result.recurring_streams.filter((s) => s.merchant_name === 'Spotify')).toHaveLength(1);
    expect(feedReads).toBe(0);
    // The Query of the stored rows, and the marker that this version was served (once).
    expect(read.calls).toBe(2);
    expect(await callsOf(deps, () => recurringOf(deps, after))).toEqual({ result: read.result, calls: 1 });
  });

  it('through the refresh worker: a sandbox item whose recurring streams were read gets them computed by its next refresh', async () => {
    const deps = await embeddedDeps();
    const auth = testAuth('app_products', 'growth');
    const { public_token } = await createSandboxPublicToken(deps, auth, { institution_id: 'ins_sandbox_first_bank', products: ['transactions', 'recurring'] });
    const { item_id } = await exchangePublicToken(deps, auth, public_token);
    await runQueuedHistoryLoad(deps, item_id);
    await recurringOf(deps, (await getItem(deps, item_id))!);
    // The worker's scheduled refresh brings the simulator's next step (new and posted transactions).
    deps.clock.advance(8 * 3600_000);
    // What is stored when the sync webhook's event is published: the integrator's read follows it.
    const storedAtPublish: Array<string | undefined> = [];
    deps.ports = { ...deps.ports, eventBus: { publish: async () => void storedAtPublish.push(await storedVersion(deps, item_id, 'recurring')) } };
    const refreshed = (await refreshItem(deps, { item_id, reason: 'scheduled' }, REFRESH_HOOKS)) as { changed: boolean };
    expect(refreshed.changed).toBe(true);
    const after = (await getItem(deps, item_id))!;
    expect(await storedVersion(deps, item_id, 'recurring')).toBe(`${versionOf(deps, after)}`);
    expect(storedAtPublish).toEqual([versionOf(deps, after)]);
    let feedReads = 0;
    const watched = intercepted(deps, (input, send) => {
      if (JSON.stringify(input).includes('"FEED#')) feedReads += 1;
      return send();
    });
    expect((await recurringOf(watched, after)).recurring_streams).toEqual(await expectedRecurring(deps, after));
    expect(feedReads).toBe(0);
  });

  it('a product nobody read is not computed at ingestion', async () => {
    const deps = await embeddedDeps();
    const item = await itemWithHistory(deps, 'item_unread');
    const { computed } = await refreshCommit(deps, item, spotify(item.itemId));
    expect(computed).toEqual([]);
    expect(await productRows(deps, item.itemId)).toEqual([]);
  });

  it('a product computed at ingestion but not read since is not computed again by the next commit', async () => {
    const deps = await embeddedDeps();
    const item = await itemWithHistory(deps, 'item_not_again');
    await incomeOf(deps, item);
    const first = await refreshCommit(deps, item, spotify(item.itemId).slice(0, 3));
    expect(first.computed).toEqual(['income']);
    const second = await refreshCommit(deps, first.item, spotify(item.itemId).slice(3));
    expect(second.computed).toEqual([]);
    // The stored row is still the first commit's: the next read computes the current snapshot itself.
    expect(await storedVersion(deps, item.itemId, 'income')).toBe(versionOf(deps, first.item));
    expect((await incomeOf(deps, second.item)).income_streams).toEqual(detectIncome(await currentTransactions(deps, item.itemId, second.item.committedSeq), today(deps)));
    // Read again, so the commit after this one computes it.
    const third = await refreshCommit(deps, second.item, [{ ...spotify(item.itemId)[0], transaction_id: 'item_not_again_extra', date: ymd(2026, 11, 5) }]);
    expect(third.computed).toEqual(['income']);
  });

  it('a product read long after the sync (a reader on its own schedule, such as a daily report) is left to its next read', async () => {
    const deps = await embeddedDeps();
    const item = await itemWithHistory(deps, 'item_daily');
    await recurringOf(deps, item);
    const { computed } = await refreshCommit(deps, item, spotify(item.itemId), READ_AFTER_SYNC_MS + 60_000);
    expect(computed).toEqual([]);
  });

  it("a product served yesterday is not computed by today's first commit (the date is part of its version)", async () => {
    const deps = await embeddedDeps();
    const item = await itemWithHistory(deps, 'item_yesterday');
    await recurringOf(deps, item);
    deps.clock.advance(DAY);
    const { computed } = await refreshCommit(deps, item, spotify(item.itemId));
    expect(computed).toEqual([]);
  });

  it('a failure while computing at ingestion leaves the product to the next read, and the refresh stands', async () => {
    const deps = await embeddedDeps();
    const item = await itemWithHistory(deps, 'item_fails');
    await recurringOf(deps, item);
    const result = await commitTransactions(deps, item.itemId, upserts(spotify(item.itemId)));
    let feedReadsTried = 0;
    const failingFeed = intercepted(deps, (input, send) => (JSON.stringify(input).includes('"FEED#') ? (feedReadsTried++, Promise.reject(new Error('throttled'))) : send()));
    const before = { ...item, lastSuccessfulSync: new Date(deps.clock.now()).toISOString() };
    await expect(REFRESH_HOOKS.afterCommit!(failingFeed, before, result.committedSeq!)).resolves.toEqual([]);
    // It did try: the product was due, and the feed read failed.
    expect(feedReadsTried).toBeGreaterThan(0);
    const after = (await getItem(deps, item.itemId))!;
    expect((await recurringOf(deps, after)).recurring_streams).toEqual(await expectedRecurring(deps, after));
  });
});

describe('the institution-reported products', () => {
  it('read the cached accounts once per call', async () => {
    const deps = await embeddedDeps();
    const item = await createTestItem(deps, 'item_institution', { consentedProducts: ['transactions', 'identity', 'liabilities', 'investments', 'assets'] });
    const { accounts } = generateSandboxItem({ institutionId: item.institutionId, username: 'user_good' }, today(deps));
    await putAccounts(deps, item.itemId, accounts, deps.clock.now());
    const investment = accounts.find((a) => a.type === 'investment')!.account_id;
    const reads: Array<() => Promise<unknown>> = [
      () => identityOf(deps, item),
      () => liabilitiesOf(deps, item),
      () => holdingsOf(deps, item),
      () => assetsOf(deps, item),
      () => investmentTransactionsOf(deps, item, { access_token: 'unused', options: { account_ids: [investment] } }),
    ];
    for (const read of reads) {
      expect((await callsOf(deps, read)).calls).toBe(1);
    }
  });
});

describe('the product store', () => {
  const value = { streams: Array.from({ length: 300 }, (_, i) => ({ id: `rec_${i}_${(i * 7919).toString(36)}`, amount: i * 1.5 })) };

  it('splits a product larger than a part across rows, and reads back only a whole write', async () => {
    const deps = await embeddedDeps();
    await createTestItem(deps, 'item_parts');
    const v1 = productVersion({ committedSeq: 1, today: '2026-11-21', rules: 1 });
    expect(await storeProduct(deps, 'item_parts', 'recurring', v1, value, 600)).toBe('stored');
    const parts = await productRows(deps, 'item_parts');
    expect(parts.length).toBeGreaterThan(2);
    expect((await readStoredProduct(deps, 'item_parts', 'recurring', v1)).value).toEqual(value);
    // Another version, or none stored, is a miss.
    expect((await readStoredProduct(deps, 'item_parts', 'recurring', productVersion({ committedSeq: 2, today: '2026-11-21', rules: 1 }))).value).toBeUndefined();
    expect((await readStoredProduct(deps, 'item_parts', 'income', v1)).value).toBeUndefined();

    // A newer, smaller write leaves the older write's trailing parts behind: they are ignored.
    const v2 = productVersion({ committedSeq: 2, today: '2026-11-21', rules: 1 });
    const smaller = { streams: value.streams.slice(0, 20) };
    expect(await storeProduct(deps, 'item_parts', 'recurring', v2, smaller, 600)).toBe('stored');
    expect((await productRows(deps, 'item_parts')).length).toBe(parts.length);
    expect((await readStoredProduct(deps, 'item_parts', 'recurring', v2)).value).toEqual(smaller);

    // An older computation never replaces it, split or not.
    expect(await storeProduct(deps, 'item_parts', 'recurring', v1, value, 600)).toBe('superseded');
    expect(await storeProduct(deps, 'item_parts', 'recurring', v1, value)).toBe('superseded');
    expect(await storeProduct(deps, 'item_parts', 'recurring', v2, smaller)).toBe('superseded');
    expect((await readStoredProduct(deps, 'item_parts', 'recurring', v2)).value).toEqual(smaller);
  });

  it('never stitches parts of two writes of the same version together', async () => {
    const deps = await embeddedDeps();
    await createTestItem(deps, 'item_stitch');
    const v = productVersion({ committedSeq: 3, today: '2026-11-21', rules: 1 });
    expect(await storeProduct(deps, 'item_stitch', 'recurring', v, value, 600)).toBe('stored');
    // Part 1 as another writer of the same version would have cut it.
    const rows = await productRows(deps, 'item_stitch');
    const part1 = rows.find((r) => r.sk === keys.productPart('item_stitch', 'recurring', 1).sk)!;
    await deps.ddb.send(new PutCommand({ TableName: deps.config.tableName, Item: { ...part1, write_id: 'another-write' } }));
    expect((await readStoredProduct(deps, 'item_stitch', 'recurring', v)).value).toBeUndefined();
  });

  it('does not store a product of more than MAX_PARTS parts', async () => {
    const deps = await embeddedDeps();
    await createTestItem(deps, 'item_huge');
    const v = productVersion({ committedSeq: 1, today: '2026-11-21', rules: 1 });
    const partBytes = Math.floor(gzipSync(JSON.stringify(value)).length / (MAX_PARTS + 1));
    expect(await storeProduct(deps, 'item_huge', 'recurring', v, value, partBytes)).toBe('too_large');
    expect(await productRows(deps, 'item_huge')).toEqual([]);
  });

  it('goes with its item: removal deletes the rows, and a write racing the removal deletes its own', async () => {
    const deps = await embeddedDeps();
    const item = await itemWithHistory(deps, 'item_removed');
    await recurringOf(deps, item);
    await incomeOf(deps, item);
    // A part and a served marker each.
    expect((await productRows(deps, item.itemId)).length).toBe(4);
    await removeItem(deps, item);
    await purgeRemovedItem(deps, item.itemId);
    expect(await productRows(deps, item.itemId)).toEqual([]);
    // A read that loaded the item before the removal finishes after it.
    expect(await storeProduct(deps, item.itemId, 'recurring', versionOf(deps, item), value)).toBe('item_gone');
    expect(await storeProduct(deps, item.itemId, 'recurring', versionOf(deps, item), value, 600)).toBe('item_gone');
    expect(await productRows(deps, item.itemId)).toEqual([]);
  });
});
