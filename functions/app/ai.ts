// The nine AI routes: rules first, always; a model when one is configured and answers well.
//
// Each route computes a complete answer with the rules (the descriptor engine for categorize and
// merchant, functions/core/ai/* for the other seven) from an item's data or a raw `transactions`
// payload, then lets the model refine it (ai-refine.ts: prose rewrites, uncategorised rows filled),
// and says which engine decided (`engine`) and which model or rules version (`model`).
//
// Item data: the item's current transactions (as of its committed_seq) and cached accounts, once its
// whole history is loaded (400 `product_not_ready` before, like recurring and income: an analysis of
// part of the history would be wrong). Recurring and income streams are detected from those same rows
// (AiInput with `recurring`/`income` null), so one answer is computed from one snapshot.
import { fail } from '../contracts/errors';
import { LIMITS } from '../contracts/limits';
import type { RequestOf, ResponseOf } from '../contracts/routes';
import type { TransactionRecord } from '../contracts/schemas';
import { cashflowRules } from '../core/ai/cashflow';
import { financialSummaryRules } from '../core/ai/financial-summary';
import { fraudRiskRules } from '../core/ai/fraud-risk';
import { healthScoreRules } from '../core/ai/health-score';
import type { AiInput } from '../core/ai/input';
import { purchaseAnalysisRules } from '../core/ai/purchase-analysis';
import { subscriptionsRules } from '../core/ai/subscriptions';
import { weeklyReportRules } from '../core/ai/weekly-report';
import { enrichTransaction, type ComposedEnrichment } from '../core/enrichment/enrich';
import { RULES_VERSION } from '../core/enrichment/rules';
import { CATEGORIES } from '../core/taxonomy';
import type { AuthContext } from '../data/api-keys-repo';
import { itemForAccessToken, type ItemRecord } from '../data/items-repo';
import { defaultModel } from '../platform/model-environment';
import type { ModelPort } from '../platform/model-port';
import type { Deps } from '../platform/runtime';
import { fillRows, refineProse, type Engine, type OpenRow } from './ai-refine';
import { todayOf } from './today';
import { cachedAccounts, requireHistory, sharedTransactions } from './reads';

/** What `model` says when only the rules ran: the rules engine and its version. */
export const RULES_MODEL = `rules-${RULES_VERSION}`;

/** The category of a row no engine decided (the categorize contract has no null category). */
export const UNCATEGORIZED = 'uncategorized';

/** The account id of rows from a raw payload: they belong to no account of ours. */
export const RAW_PAYLOAD_ACCOUNT_ID = 'raw_payload';
/** The currency of a raw row that names none. */
const RAW_PAYLOAD_DEFAULT_CURRENCY = 'USD';

/** Confidence of a category the model decided where every other engine abstained. */
const MODEL_CONFIDENCE = 0.5;

const DETAILED_CATEGORY_IDS: readonly string[] = CATEGORIES.flatMap((c) => c.detailed.map((d) => d.category_detailed));

/** Which engine decided a row (the `decided_by` of categorize rows and merchant answers). */
export type DecidedBy = 'rules' | 'directory' | 'learned' | 'ai' | null;

/** The enrichment of one descriptor (rules, brand directory, learned fallback), with the engine that decided it. */
function enrichRow(descriptor: string, amount: number): ComposedEnrichment & { decided_by: DecidedBy } {
  const e = enrichTransaction(descriptor, amount);
  return { ...e, decided_by: e.engine };
}

/** The model the AI routes use: the one deps carry (tests, local runs), else the environment's. */
function modelOf(deps: Deps): ModelPort | null {
  return deps.model !== undefined ? deps.model : defaultModel(deps.config.region);
}

// ---------------------------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------------------------

/** A row of a raw `transactions` payload (contracts/schemas.ts InputTransaction). */
interface RawRow {
  id: string;
  description: string;
  amount: number;
  date?: string;
  iso_currency_code?: string;
}

/**
 * The item an AI route's `access_token` names, for the routes that also take a raw payload (the
 * others get it from the operation, item: true): the same answers as every item route.
 */
async function consentedItem(deps: Deps, auth: AuthContext, accessToken: string): Promise<ItemRecord> {
  const item = await itemForAccessToken(deps, accessToken, auth.applicationId, auth.environment);
  if (!item) fail('invalid_access_token');
  if (!item.consentedProducts.includes('transactions')) fail('transactions_not_consented');
  return item;
}

async function itemInput(deps: Deps, item: ItemRecord): Promise<AiInput> {
  requireHistory(item, 'historical_update_complete');
  const [transactions, accounts] = await Promise.all([sharedTransactions(deps, item), cachedAccounts(deps, item)]);
  return { today: todayOf(deps), transactions, accounts, recurring: null, income: null };
}

/** A raw row as a transaction, enriched like an ingested one. */
function rawRecord(row: RawRow, today: string): TransactionRecord {
  const e = enrichRow(row.description, row.amount);
  return {
    transaction_id: row.id,
    account_id: RAW_PAYLOAD_ACCOUNT_ID,
    date: row.date ?? today,
    authorized_datetime: null,
    name: row.description,
    merchant_name: e.merchant_name,
    amount: row.amount,
    iso_currency_code: row.iso_currency_code ?? RAW_PAYLOAD_DEFAULT_CURRENCY,
    pending: false,
    category: e.category,
    category_detailed: e.category_detailed,
    payment_channel: e.payment_channel,
  };
}

function rowsInput(deps: Deps, rows: readonly RawRow[]): AiInput {
  const today = todayOf(deps);
  return { today, transactions: rows.map((row) => rawRecord(row, today)), accounts: null, recurring: null, income: null };
}

type ItemOrRows = { access_token?: string; transactions?: readonly RawRow[] };

/** The input of a route that takes an item or a raw payload (the schema allows exactly one). */
async function inputOf(deps: Deps, auth: AuthContext, body: ItemOrRows): Promise<AiInput> {
  if (body.transactions) return rowsInput(deps, body.transactions);
  if (body.access_token === undefined) fail('missing_field', 'Send access_token or transactions.');
  return itemInput(deps, await consentedItem(deps, auth, body.access_token));
}

const withEngine = <T extends object>(answer: T, engine: Engine, model: string) => ({ ...answer, engine, model });

// ---------------------------------------------------------------------------------------------
// categorize and merchant: the descriptor engine, the model for rows it leaves open
// ---------------------------------------------------------------------------------------------

const newestFirst = (a: TransactionRecord, b: TransactionRecord) =>
  a.date === b.date ? a.transaction_id.localeCompare(b.transaction_id) : a.date < b.date ? 1 : -1;

export async function categorize(deps: Deps, auth: AuthContext, body: RequestOf<'ai.categorize'>): Promise<ResponseOf<'ai.categorize'>> {
  let rows: OpenRow[];
  if (body.transactions) {
    rows = body.transactions.map((t) => ({ id: t.id, description: t.description, amount: t.amount }));
  } else {
    if (body.access_token === undefined) fail('missing_field', 'Send access_token or transactions.');
    const item = await consentedItem(deps, auth, body.access_token);
    requireHistory(item, 'historical_update_complete');
    const newest = (await sharedTransactions(deps, item)).sort(newestFirst).slice(0, LIMITS.aiTransactionsMax);
    rows = newest.map((t) => ({ id: t.transaction_id, description: t.name, amount: t.amount }));
  }
  const categorized = rows.map((row) => {
    const e = enrichRow(row.description, row.amount);
    return {
      id: row.id,
      category: e.category ?? UNCATEGORIZED,
      category_detailed: e.category_detailed ?? UNCATEGORIZED,
      confidence: e.confidence,
      decided_by: e.decided_by,
    };
  });
  const open = rows.filter((_, i) => categorized[i].decided_by === null);
  const model = modelOf(deps);
  const fills = await fillRows(model, 'categorize', open, DETAILED_CATEGORY_IDS);
  if (!fills || !model) return withEngine({ categorized }, 'rules', RULES_MODEL);
  const refined = categorized.map((row) => {
    const fill = fills.get(row.id);
    return fill && row.decided_by === null
      ? { ...row, category: fill.category, category_detailed: fill.category_detailed, confidence: MODEL_CONFIDENCE, decided_by: 'ai' as const }
      : row;
  });
  const engine: Engine = refined.every((row) => row.decided_by === 'ai') ? 'ai' : 'ai+rules';
  return withEngine({ categorized: refined }, engine, model.name);
}

export async function resolveMerchant(deps: Deps, body: RequestOf<'ai.merchant'>): Promise<ResponseOf<'ai.merchant'>> {
  const amount = body.amount ?? 0;
  const e = enrichRow(body.description, amount);
  const rules = {
    merchant_name: e.merchant_name,
    category: e.category,
    category_detailed: e.category_detailed,
    payment_channel: e.payment_channel,
    confidence: e.confidence,
    decided_by: e.decided_by,
  };
  if (e.decided_by !== null) return withEngine(rules, 'rules', RULES_MODEL);
  const model = modelOf(deps);
  const fill = (await fillRows(model, 'merchant', [{ id: 'descriptor', description: body.description, amount }], DETAILED_CATEGORY_IDS))?.get('descriptor');
  if (!fill || !model) return withEngine(rules, 'rules', RULES_MODEL);
  return withEngine(
    {
      ...rules,
      merchant_name: fill.merchant_name ?? rules.merchant_name,
      category: fill.category,
      category_detailed: fill.category_detailed,
      confidence: MODEL_CONFIDENCE,
      decided_by: 'ai' as const,
    },
    // The rules still decided the channel (and the name when the model gave none).
    'ai+rules',
    model.name,
  );
}

// ---------------------------------------------------------------------------------------------
// The seven analyses: rules answers (functions/core/ai), prose refined by the model
// ---------------------------------------------------------------------------------------------

async function refined<T extends object>(deps: Deps, task: string, answer: T) {
  const { answer: out, engine, model } = await refineProse(modelOf(deps), task, answer, RULES_MODEL);
  return withEngine(out, engine, model);
}

export async function subscriptions(deps: Deps, auth: AuthContext, body: RequestOf<'ai.subscriptions'>): Promise<ResponseOf<'ai.subscriptions'>> {
  return refined(deps, 'subscriptions', subscriptionsRules(await inputOf(deps, auth, body)));
}

export async function cashflow(deps: Deps, auth: AuthContext, body: RequestOf<'ai.cashflow'>): Promise<ResponseOf<'ai.cashflow'>> {
  return refined(deps, 'cash-flow forecast', cashflowRules(await inputOf(deps, auth, body), { horizonDays: body.horizon_days }));
}

export async function healthScore(deps: Deps, item: ItemRecord): Promise<ResponseOf<'ai.health-score'>> {
  return refined(deps, 'financial health score', healthScoreRules(await itemInput(deps, item)));
}

export async function financialSummary(deps: Deps, item: ItemRecord): Promise<ResponseOf<'ai.financial-summary'>> {
  return refined(deps, 'financial summary', financialSummaryRules(await itemInput(deps, item)));
}

export async function fraudRisk(deps: Deps, auth: AuthContext, body: RequestOf<'ai.fraud-risk'>): Promise<ResponseOf<'ai.fraud-risk'>> {
  return refined(deps, 'fraud risk review', fraudRiskRules(await inputOf(deps, auth, body)));
}

export async function purchaseAnalysis(deps: Deps, item: ItemRecord, body: RequestOf<'ai.purchase-analysis'>): Promise<ResponseOf<'ai.purchase-analysis'>> {
  return refined(deps, 'purchase analysis', purchaseAnalysisRules(await itemInput(deps, item), body.purchase));
}

export async function weeklyReport(deps: Deps, item: ItemRecord, body: RequestOf<'ai.weekly-report'>): Promise<ResponseOf<'ai.weekly-report'>> {
  return refined(deps, 'weekly report', weeklyReportRules(await itemInput(deps, item), { weekEnding: body.week_ending }));
}
