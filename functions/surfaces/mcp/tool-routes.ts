// Each MCP tool's REST route, as the route's own const (not routeById): what reads a tool's request
// schema or REST path (tools/list, GET /mcp) then carries these fifteen routes' declarations and
// schemas, not the whole route table's (console, Link, webhooks, the other AI routes).
import type { McpTool, McpToolName } from '../../contracts/mcp-tools';
import {
  accountsGet,
  aiCashflow,
  aiCategorize,
  aiFinancialSummary,
  aiHealthScore,
  aiPurchaseAnalysis,
  institutionsSearch,
  investmentsHoldingsGet,
  itemsGet,
  liabilitiesGet,
  linkTokenCreate,
  linkTokenExchange,
  recurringGet,
  transactionsGet,
  transactionsSync,
  type Route,
} from '../../contracts/routes';

/** The route each tool runs (its MCP_TOOLS `route`, checked by routeOfTool). */
export const MCP_TOOL_ROUTES: Readonly<Record<McpToolName, Route>> = {
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

/**
 * The route of a tool of MCP_TOOLS; a const bound to another route than the tool's `route` throws.
 * (Checked here, not in a loop at load: a top-level statement would keep every tool's route in the
 * discovery documents' bundles, which only need the tools' names.)
 */
export function routeOfTool(tool: McpTool): Route {
  const route = Object.hasOwn(MCP_TOOL_ROUTES, tool.name) ? MCP_TOOL_ROUTES[tool.name as McpToolName] : undefined;
  if (!route) throw new Error(`${tool.name} is not an MCP tool`);
  if (route.id !== tool.route) throw new Error(`MCP tool ${tool.name} runs ${tool.route}, but its route const is ${route.id}'s`);
  return route;
}
