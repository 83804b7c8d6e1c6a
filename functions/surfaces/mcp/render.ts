// The short human-readable text an MCP tool result carries beside its structured content (the REST
// answer itself): a line or a few that a chat client can show or a model can read at a glance. The
// structured content stays the source of truth; these never add facts it does not hold.
import type { MCP_TOOLS, McpToolName } from '../../contracts/mcp-tools';
import type { ResponseOf } from '../../contracts/routes';

type RouteOfTool<Name extends McpToolName> = Extract<(typeof MCP_TOOLS)[number], { name: Name }>['route'];
type Renderers = { [Name in McpToolName]: (result: ResponseOf<RouteOfTool<Name>>, baseUrl: string) => string };

/** Lines listed before "and N more". */
const LIST_LIMIT = 10;

function list<T>(items: readonly T[], line: (item: T) => string): string {
  const shown = items.slice(0, LIST_LIMIT).map((item) => `- ${line(item)}`);
  if (items.length > LIST_LIMIT) shown.push(`- and ${items.length - LIST_LIMIT} more`);
  return shown.join('\n');
}

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
const money = (amount: number | null | undefined, currency: string) => (amount === null || amount === undefined ? 'n/a' : `${amount.toFixed(2)} ${currency}`);
const withList = <T>(head: string, items: readonly T[], line: (item: T) => string) => (items.length > 0 ? `${head}:\n${list(items, line)}` : `${head}.`);

interface AccountLike {
  name: string;
  mask: string;
  type: string;
  subtype: string;
  balances: { current: number; iso_currency_code: string };
}
const accountLine = (a: AccountLike) => `${a.name} ••${a.mask} (${a.type}/${a.subtype}): ${money(a.balances.current, a.balances.iso_currency_code)}`;

interface CashflowView {
  start_date: string;
  end_date: string;
  horizon_days: number;
  engine: string;
  iso_currency_code: string;
  starting_balance: number;
  ending_balance: number;
  lowest_balance: { date: string; balance: number };
  low_balance_warning: { explanation: string } | null;
}

const RENDERERS: Renderers = {
  search_institutions: ({ institutions }) =>
    withList(plural(institutions.length, 'institution'), institutions, (i) => `${i.name} (${i.institution_id}, ${i.type}, ${i.country_codes.join('/')})`),
  create_link_url: ({ link_token, expiration }, baseUrl) =>
    `Link token ${link_token}, valid until ${expiration}. Open ${baseUrl}/link?token=${encodeURIComponent(link_token)} to connect an account.`,
  exchange_public_token: ({ item_id, access_token, rotated }) =>
    `Item ${item_id} connected${rotated ? ' (its previous access token was rotated out)' : ''}. Its access_token is ${access_token}: pass it to the item tools.`,
  get_item: ({ item }) =>
    `Item ${item.item_id} at ${item.institution_name}: ${item.status}` +
    `${item.error ? ` (${item.error.code}: ${item.error.message})` : ''}; products ${item.consented_products.join(', ') || 'none'}; ` +
    `transactions ${item.transactions_update_status}; last sync ${item.last_successful_sync ?? 'never'}.`,
  list_accounts: ({ accounts }) => withList(plural(accounts.length, 'account'), accounts, accountLine),
  get_transactions: ({ transactions, total_transactions }) =>
    withList(`${transactions.length} of ${plural(total_transactions, 'transaction')}`, transactions, (t) =>
      `${t.date} ${t.merchant_name ?? t.name}: ${money(t.amount, t.iso_currency_code)}${t.pending ? ' (pending)' : ''}`,
    ),
  sync_transactions: ({ added, modified, removed, has_more, transactions_update_status }) =>
    `${added.length} added, ${modified.length} modified, ${removed.length} removed (history ${transactions_update_status}). ` +
    (has_more ? 'More changes: call again with next_cursor.' : 'Up to date: keep next_cursor for the next sync.'),
  get_recurring: ({ recurring_streams }) =>
    withList(plural(recurring_streams.length, 'recurring stream'), recurring_streams, (s) =>
      `${s.merchant_name ?? s.description} (${s.direction}, ${s.cadence}${s.is_active ? '' : ', inactive'}): ${money(s.average_amount, s.iso_currency_code)} on average`,
    ),
  get_investments: ({ accounts, holdings }) =>
    withList(`${plural(holdings.length, 'holding')} in ${plural(accounts.length, 'account')}`, holdings, (h) =>
      `${h.security.ticker ?? h.security.name}: ${h.quantity} units, value ${h.value.toFixed(2)}`,
    ),
  get_liabilities: ({ accounts, liabilities }) =>
    `${plural(liabilities.credit.length, 'credit card')}, ${plural(liabilities.mortgage.length, 'mortgage')}, ` +
    `${plural(liabilities.student.length, 'student loan')}, ${plural(liabilities.auto.length, 'auto loan')} ` +
    `across ${plural(accounts.length, 'account')}.`,
  ai_categorize: ({ categorized, engine }) => {
    const counts = new Map<string, number>();
    for (const row of categorized) counts.set(row.category, (counts.get(row.category) ?? 0) + 1);
    const top = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    return withList(`${plural(categorized.length, 'transaction')} categorized (engine ${engine})`, top, ([category, n]) => `${category}: ${n}`);
  },
  // The AI responses are built generically (aiResponse), so their fields are not inferred one by one: read as sent.
  ai_cashflow_forecast: (result) => {
    const f = result as unknown as CashflowView;
    return (
      `Forecast ${f.start_date} to ${f.end_date} (${f.horizon_days} days, engine ${f.engine}): from ${money(f.starting_balance, f.iso_currency_code)} ` +
      `to ${money(f.ending_balance, f.iso_currency_code)}, lowest ${money(f.lowest_balance.balance, f.iso_currency_code)} on ${f.lowest_balance.date}.` +
      (f.low_balance_warning ? ` Warning: ${f.low_balance_warning.explanation}` : '')
    );
  },
  ai_purchase_analysis: ({ verdict, recommendation, engine }) => `Verdict: ${verdict} (engine ${engine}). ${recommendation}`,
  ai_financial_summary: ({ summary, engine }) => `${summary} (engine ${engine})`,
  ai_health_score: ({ score, band, summary, engine }) => `Health score ${score}/100 (${band}, engine ${engine}). ${summary}`,
};

/** The text rendering of a tool's result (the REST answer of its route). */
export function renderToolResult(name: McpToolName, result: unknown, baseUrl: string): string {
  return (RENDERERS[name] as (result: unknown, baseUrl: string) => string)(result, baseUrl);
}
