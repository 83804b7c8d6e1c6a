// The MCP server's tools (spec: fifteen names, fixed). Each tool is one REST route: its input schema
// is that route's request schema, it runs that route's handler code (functions/surfaces/mcp), and it
// is metered as that route is (an ai_* call counts against the AI quota). The server, its descriptor,
// the discovery documents, metering and the docs all read this table.
import type { RouteId } from './routes';

export interface McpTool {
  name: string;
  route: RouteId;
  /** What the tool does, for the model choosing it (one or two sentences). */
  description: string;
}

export const MCP_TOOLS = [
  {
    name: 'search_institutions',
    route: 'institutions.search',
    description:
      'Search the institutions a user can connect by name (case-insensitive), optionally only some institution types or countries; ' +
      'at most 20, most popular first. An empty query lists the most popular.',
  },
  {
    name: 'create_link_url',
    route: 'link.token.create',
    description:
      'Create a 30-minute link token for a user and the products to connect; the user opens {base_url}/link?token=<link_token> ' +
      '(the result text gives the full address) to connect an account, and Link hands back a public token.',
  },
  {
    name: 'exchange_public_token',
    route: 'link.token.exchange',
    description: "Exchange the single-use public token Link returned for the item's permanent access token and its item id.",
  },
  {
    name: 'get_item',
    route: 'items.get',
    description: 'An item (one connection to one institution): status and error, consented products, last successful sync, and how much transaction history is loaded.',
  },
  { name: 'list_accounts', route: 'accounts.get', description: "An item's consented accounts with their cached balances (optionally only some account_ids)." },
  {
    name: 'get_transactions',
    route: 'transactions.get',
    description: "A page of an item's transactions between two dates (both inclusive), newest first, paged by count and offset; removed transactions are left out.",
  },
  {
    name: 'sync_transactions',
    route: 'transactions.sync',
    description:
      "Changes to an item's transactions since a cursor (added, modified, removed; the whole history without one); call again with next_cursor while has_more.",
  },
  { name: 'get_recurring', route: 'recurring.get', description: "Recurring streams detected in an item's history: subscriptions, bills and payroll, inflows and outflows." },
  { name: 'get_investments', route: 'investments.holdings.get', description: "An item's investment and crypto holdings with their securities." },
  { name: 'get_liabilities', route: 'liabilities.get', description: "An item's liabilities: credit cards, mortgages, student loans and auto loans." },
  {
    name: 'ai_categorize',
    route: 'ai.categorize',
    description: "Categorize transactions in the standard taxonomy: an item's newest 1000 (access_token) or up to 1000 rows you pass (transactions), not both.",
  },
  {
    name: 'ai_cashflow_forecast',
    route: 'ai.cashflow',
    description:
      'Forecast daily balances and cash flow over the next horizon_days (1-365, default 30) from an item (access_token), ' +
      'or the net change from rows you pass (transactions).',
  },
  {
    name: 'ai_purchase_analysis',
    route: 'ai.purchase-analysis',
    description: "Whether to buy, wait or skip a planned purchase, given an item's balances, income and recurring outflows, with its opportunity cost.",
  },
  {
    name: 'ai_financial_summary',
    route: 'ai.financial-summary',
    description: "A plain-language summary of an item's recent income and spending, top categories and merchants, and notable changes from the previous period.",
  },
  {
    name: 'ai_health_score',
    route: 'ai.health-score',
    description:
      "A 0-100 financial health score of an item with its seven explained subscores (savings rate, emergency buffer, spending stability, " +
      'credit utilization, debt to income, income regularity, fees).',
  },
] as const satisfies readonly McpTool[];

export type McpToolName = (typeof MCP_TOOLS)[number]['name'];

export const MCP_TOOLS_BY_NAME: ReadonlyMap<string, McpTool> = /* @__PURE__ */ new Map(/* @__PURE__ */ MCP_TOOLS.map((t) => [t.name, t]));

/** The server's name and version in the MCP handshake and the discovery documents. */
export const MCP_SERVER_INFO = { name: 'fincore', title: 'Fincore financial data', version: '1.0.0' } as const;
