// Each MCP tool's REST route handler: the module functions/api/<route>.ts itself, so a tool call runs
// exactly the route's code (invokeRoute: schema, access token, consent, use case). A handler bound to
// another route than its tool's fails at load, before any request is served. Only unbundled code
// (local mode, tests) loads this module: a deployed MCP function hands each call to the tool's own
// function instead (./tool-runner.ts).
import type { McpToolName } from '../../contracts/mcp-tools';
import { MCP_TOOLS } from '../../contracts/mcp-tools';
import { invokeRoute, type InlineCall, type RouteHandler } from '../../platform/operation';
import { handler as aiCashflow } from '../../api/ai.cashflow';
import { handler as aiCategorize } from '../../api/ai.categorize';
import { handler as aiFinancialSummary } from '../../api/ai.financial-summary';
import { handler as aiHealthScore } from '../../api/ai.health-score';
import { handler as aiPurchaseAnalysis } from '../../api/ai.purchase-analysis';
import { handler as accountsGet } from '../../api/accounts.get';
import { handler as institutionsSearch } from '../../api/institutions.search';
import { handler as investmentsHoldingsGet } from '../../api/investments.holdings.get';
import { handler as itemsGet } from '../../api/items.get';
import { handler as liabilitiesGet } from '../../api/liabilities.get';
import { handler as linkTokenCreate } from '../../api/link.token.create';
import { handler as linkTokenExchange } from '../../api/link.token.exchange';
import { handler as recurringGet } from '../../api/recurring.get';
import { handler as transactionsGet } from '../../api/transactions.get';
import { handler as transactionsSync } from '../../api/transactions.sync';

export const MCP_TOOL_HANDLERS: Readonly<Record<McpToolName, RouteHandler>> = {
  search_institutions: institutionsSearch,
  create_link_url: linkTokenCreate,
  exchange_public_token: linkTokenExchange,
  get_item: itemsGet,
  list_accounts: accountsGet,
  get_transactions: transactionsGet,
  sync_transactions: transactionsSync,
  get_recurring: recurringGet,
  get_investments: investmentsHoldingsGet,
  get_liabilities: liabilitiesGet,
  ai_categorize: aiCategorize,
  ai_cashflow_forecast: aiCashflow,
  ai_purchase_analysis: aiPurchaseAnalysis,
  ai_financial_summary: aiFinancialSummary,
  ai_health_score: aiHealthScore,
};

for (const tool of MCP_TOOLS) {
  const bound = MCP_TOOL_HANDLERS[tool.name].routeId;
  if (bound !== tool.route) throw new Error(`MCP tool ${tool.name} runs ${tool.route}, but its handler is ${bound}'s`);
}

/** Runs a tool's route here, in this process, for the call (./tool-runner.ts). */
export function runToolInProcess(name: McpToolName, call: InlineCall, args: unknown): Promise<unknown> {
  return invokeRoute(MCP_TOOL_HANDLERS[name], call, args);
}
