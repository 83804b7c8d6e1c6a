// A minimal valid request body per POST route, shared by the bad-input and isolation suites.
// The bad-input suite fails when a POST route has no entry here.
export const TOKEN = 'fc_at_abc123';
const LINK = 'fc_link_abc123';

/** A minimal valid body per route; the suite fails if a POST route has none. */
export const VALID: Record<string, Record<string, unknown>> = {
  'link.token.create': { user: { client_user_id: 'user-1' }, products: ['transactions'] },
  'link.token.exchange': { public_token: 'fc_pub_abc' },
  'items.get': { access_token: TOKEN },
  'items.remove': { access_token: TOKEN },
  'items.refresh': { access_token: TOKEN },
  'institutions.search': { query: 'bank' },
  'institutions.get_by_id': { institution_id: 'ins_sandbox_first_bank' },
  'accounts.get': { access_token: TOKEN },
  'accounts.balance.get': { access_token: TOKEN },
  'transactions.sync': { access_token: TOKEN },
  'transactions.get': { access_token: TOKEN, start_date: '2026-01-01', end_date: '2026-01-31' },
  'identity.get': { access_token: TOKEN },
  'income.get': { access_token: TOKEN },
  'liabilities.get': { access_token: TOKEN },
  'recurring.get': { access_token: TOKEN },
  'categories.get': {},
  'assets.get': { access_token: TOKEN },
  'investments.holdings.get': { access_token: TOKEN },
  'investments.transactions.get': { access_token: TOKEN },
  'ai.categorize': { transactions: [{ id: 't1', description: 'SQ *BLUE BOTTLE', amount: 4.5 }] },
  'ai.subscriptions': { transactions: [{ id: 't1', description: 'NETFLIX.COM', amount: 15.49 }] },
  'ai.cashflow': { access_token: TOKEN },
  'ai.merchant': { description: 'TST* JOES PIZZA 0042' },
  'ai.health-score': { access_token: TOKEN },
  'ai.financial-summary': { access_token: TOKEN },
  'ai.fraud-risk': { access_token: TOKEN },
  'ai.purchase-analysis': { access_token: TOKEN, purchase: { description: 'laptop', amount: 1200 } },
  'ai.weekly-report': { access_token: TOKEN },
  'sandbox.public_token.create': { institution_id: 'ins_sandbox_first_bank', products: ['transactions'] },
  'sandbox.fire_webhook': { access_token: TOKEN, webhook_type: 'item.error' },
  'sandbox.item.reset_login': { access_token: TOKEN },
  'graphql.query': { query: '{ __typename }' },
  'link.session': { link_token: LINK },
  'link.institutions': { link_token: LINK, query: 'bank' },
  'link.connect': { link_token: LINK, institution_id: 'ins_sandbox_first_bank', username: 'user_good', password: 'pass_good' },
  'link.mfa': { link_token: LINK, code: '1234' },
};

