// Generated from openapi.json by bin/sdks/generate.ts (npm run sdks). Do not edit.
import type { RequestOptions, Transport } from '../transport.js';
import type {
  AccessTokenRequest,
  AccountsBalanceGetRequest,
  AccountsBalanceGetResponse,
  AccountsGetRequest,
  AccountsGetResponse,
  AiCashflowRequest,
  AiCashflowResponse,
  AiCategorizeRequest,
  AiCategorizeResponse,
  AiFinancialSummaryResponse,
  AiFraudRiskRequest,
  AiFraudRiskResponse,
  AiHealthScoreResponse,
  AiMerchantRequest,
  AiMerchantResponse,
  AiPurchaseAnalysisRequest,
  AiPurchaseAnalysisResponse,
  AiSubscriptionsRequest,
  AiSubscriptionsResponse,
  AiWeeklyReportRequest,
  AiWeeklyReportResponse,
  AssetsGetResponse,
  CategoriesGetRequest,
  CategoriesGetResponse,
  IdentityGetResponse,
  IncomeGetResponse,
  InstitutionsGetByIdRequest,
  InstitutionsGetByIdResponse,
  InstitutionsSearchRequest,
  InstitutionsSearchResponse,
  InvestmentsHoldingsGetResponse,
  InvestmentsTransactionsGetRequest,
  InvestmentsTransactionsGetResponse,
  ItemWebhookUpdateRequest,
  ItemWebhookUpdateResponse,
  ItemsGetResponse,
  ItemsRefreshResponse,
  ItemsRemoveResponse,
  ItemsStatementsUploadRequest,
  ItemsStatementsUploadResponse,
  LiabilitiesGetResponse,
  LinkTokenCreateRequest,
  LinkTokenCreateResponse,
  LinkTokenExchangeRequest,
  LinkTokenExchangeResponse,
  RecurringGetResponse,
  SandboxFireWebhookRequest,
  SandboxFireWebhookResponse,
  SandboxItemResetLoginResponse,
  SandboxPublicTokenCreateRequest,
  SandboxPublicTokenCreateResponse,
  TransactionsGetRequest,
  TransactionsGetResponse,
  TransactionsSyncRequest,
  TransactionsSyncResponse,
  WebhooksDeliveriesListRequest,
  WebhooksDeliveriesListResponse,
  WebhooksEndpointsCreateRequest,
  WebhooksEndpointsCreateResponse,
  WebhooksEndpointsDeleteRequest,
  WebhooksEndpointsDeleteResponse,
  WebhooksEndpointsListRequest,
  WebhooksEndpointsListResponse,
  WebhooksEventsReplayRequest,
  WebhooksEventsReplayResponse,
  WebhooksSecretRotateRequest,
  WebhooksSecretRotateResponse,
} from './models.js';

/** API version this library was generated from (openapi.json info.version). */
export const API_VERSION = '2026-07-01';

/** The institutions method group (`client.institutions`). */
export class InstitutionsApi {
  constructor(private readonly transport: Transport) {}

  /** Search institutions by name (case-insensitive), ordered by popularity, at most 20 results. */
  search(request: InstitutionsSearchRequest, options?: RequestOptions): Promise<InstitutionsSearchResponse> {
    return this.transport.call<InstitutionsSearchResponse>({ method: 'POST', path: '/v1/institutions/search', retrySafe: true }, request, options);
  }

  /** One institution by its id. */
  getById(request: InstitutionsGetByIdRequest, options?: RequestOptions): Promise<InstitutionsGetByIdResponse> {
    return this.transport.call<InstitutionsGetByIdResponse>({ method: 'POST', path: '/v1/institutions/get_by_id', retrySafe: true }, request, options);
  }
}

/** The link method group (`client.link`). */
export class LinkApi {
  constructor(private readonly transport: Transport) {}

  /** Mint a 30-minute link token that opens hosted Link at {base_url}/link?token=... */
  tokenCreate(request: LinkTokenCreateRequest, options?: RequestOptions): Promise<LinkTokenCreateResponse> {
    return this.transport.call<LinkTokenCreateResponse>({ method: 'POST', path: '/v1/link/token/create', retrySafe: true }, request, options);
  }

  /**
   * Exchange a single-use public token for a permanent access token.
   * Not retried after a 5xx or a network error (not safe to repeat).
   */
  tokenExchange(request: LinkTokenExchangeRequest, options?: RequestOptions): Promise<LinkTokenExchangeResponse> {
    return this.transport.call<LinkTokenExchangeResponse>({ method: 'POST', path: '/v1/link/token/exchange', retrySafe: false }, request, options);
  }
}

/** The items method group (`client.items`). */
export class ItemsApi {
  constructor(private readonly transport: Transport) {}

  /** Status, institution, consented products, last sync time and history readiness of an item. */
  get(request: AccessTokenRequest, options?: RequestOptions): Promise<ItemsGetResponse> {
    return this.transport.call<ItemsGetResponse>({ method: 'POST', path: '/v1/items/get', retrySafe: true }, request, options);
  }

  /** Remove an item: its cached data is deleted and its access token stops working. */
  remove(request: AccessTokenRequest, options?: RequestOptions): Promise<ItemsRemoveResponse> {
    return this.transport.call<ItemsRemoveResponse>({ method: 'POST', path: '/v1/items/remove', retrySafe: true }, request, options);
  }

  /** Start an on-demand refresh; new transactions are announced by webhook. */
  refresh(request: AccessTokenRequest, options?: RequestOptions): Promise<ItemsRefreshResponse> {
    return this.transport.call<ItemsRefreshResponse>({ method: 'POST', path: '/v1/items/refresh', retrySafe: true }, request, options);
  }

  /** Upload another statement file (CSV, OFX, QFX, QBO) to an item created from a statement. */
  statementsUpload(request: ItemsStatementsUploadRequest, options?: RequestOptions): Promise<ItemsStatementsUploadResponse> {
    return this.transport.call<ItemsStatementsUploadResponse>({ method: 'POST', path: '/v1/items/statements/upload', retrySafe: true }, request, options);
  }

  /** Set, change or clear (null) the item's own webhook URL: events about the item go there besides the environment's endpoints. */
  itemWebhookUpdate(request: ItemWebhookUpdateRequest, options?: RequestOptions): Promise<ItemWebhookUpdateResponse> {
    return this.transport.call<ItemWebhookUpdateResponse>({ method: 'POST', path: '/v1/item/webhook/update', retrySafe: true }, request, options);
  }
}

/** The accounts method group (`client.accounts`). */
export class AccountsApi {
  constructor(private readonly transport: Transport) {}

  /** Consented accounts with cached balances. */
  get(request: AccountsGetRequest, options?: RequestOptions): Promise<AccountsGetResponse> {
    return this.transport.call<AccountsGetResponse>({ method: 'POST', path: '/v1/accounts/get', retrySafe: true }, request, options);
  }

  /** Accounts with balances refreshed from the institution when older than 15 minutes. */
  balanceGet(request: AccountsBalanceGetRequest, options?: RequestOptions): Promise<AccountsBalanceGetResponse> {
    return this.transport.call<AccountsBalanceGetResponse>({ method: 'POST', path: '/v1/accounts/balance/get', retrySafe: true }, request, options);
  }
}

/** The transactions method group (`client.transactions`). */
export class TransactionsApi {
  constructor(private readonly transport: Transport) {}

  /** Page through transaction changes since a cursor (full history without one). */
  sync(request: TransactionsSyncRequest, options?: RequestOptions): Promise<TransactionsSyncResponse> {
    return this.transport.call<TransactionsSyncResponse>({ method: 'POST', path: '/v1/transactions/sync', retrySafe: true }, request, options);
  }

  /** Transactions in a date range, paged by count and offset; removed rows excluded. */
  get(request: TransactionsGetRequest, options?: RequestOptions): Promise<TransactionsGetResponse> {
    return this.transport.call<TransactionsGetResponse>({ method: 'POST', path: '/v1/transactions/get', retrySafe: true }, request, options);
  }
}

/** The products method group (`client.products`). */
export class ProductsApi {
  constructor(private readonly transport: Transport) {}

  /** Names, emails, phones and addresses of the account owners. */
  identityGet(request: AccessTokenRequest, options?: RequestOptions): Promise<IdentityGetResponse> {
    return this.transport.call<IdentityGetResponse>({ method: 'POST', path: '/v1/identity/get', retrySafe: true }, request, options);
  }

  /** Income streams detected from payroll and other inflows. */
  incomeGet(request: AccessTokenRequest, options?: RequestOptions): Promise<IncomeGetResponse> {
    return this.transport.call<IncomeGetResponse>({ method: 'POST', path: '/v1/income/get', retrySafe: true }, request, options);
  }

  /** Credit cards, mortgages, student and auto loans. */
  liabilitiesGet(request: AccessTokenRequest, options?: RequestOptions): Promise<LiabilitiesGetResponse> {
    return this.transport.call<LiabilitiesGetResponse>({ method: 'POST', path: '/v1/liabilities/get', retrySafe: true }, request, options);
  }

  /** Recurring streams: subscriptions, bills and payroll. */
  recurringGet(request: AccessTokenRequest, options?: RequestOptions): Promise<RecurringGetResponse> {
    return this.transport.call<RecurringGetResponse>({ method: 'POST', path: '/v1/recurring/get', retrySafe: true }, request, options);
  }

  /** The static taxonomy: 14 primary and 89 detailed categories, with a Plaid crosswalk. */
  categoriesGet(request: CategoriesGetRequest = {}, options?: RequestOptions): Promise<CategoriesGetResponse> {
    return this.transport.call<CategoriesGetResponse>({ method: 'POST', path: '/v1/categories/get', retrySafe: true }, request, options);
  }

  /** Assets, liabilities and net worth in one currency. */
  assetsGet(request: AccessTokenRequest, options?: RequestOptions): Promise<AssetsGetResponse> {
    return this.transport.call<AssetsGetResponse>({ method: 'POST', path: '/v1/assets/get', retrySafe: true }, request, options);
  }

  /** Holdings and securities of investment and crypto accounts. */
  investmentsHoldingsGet(request: AccessTokenRequest, options?: RequestOptions): Promise<InvestmentsHoldingsGetResponse> {
    return this.transport.call<InvestmentsHoldingsGetResponse>({ method: 'POST', path: '/v1/investments/holdings/get', retrySafe: true }, request, options);
  }

  /** Investment transactions; omitted date bounds mean the full history. */
  investmentsTransactionsGet(request: InvestmentsTransactionsGetRequest, options?: RequestOptions): Promise<InvestmentsTransactionsGetResponse> {
    return this.transport.call<InvestmentsTransactionsGetResponse>({ method: 'POST', path: '/v1/investments/transactions/get', retrySafe: true }, request, options);
  }
}

/** The ai method group (`client.ai`). */
export class AiApi {
  constructor(private readonly transport: Transport) {}

  /** Categorize transactions into the platform taxonomy. */
  categorize(request: AiCategorizeRequest, options?: RequestOptions): Promise<AiCategorizeResponse> {
    return this.transport.call<AiCategorizeResponse>({ method: 'POST', path: '/v1/ai/categorize', retrySafe: true }, request, options);
  }

  /** Paid subscriptions with cadence, annual cost, likely-unused flags and savings notes. */
  subscriptions(request: AiSubscriptionsRequest, options?: RequestOptions): Promise<AiSubscriptionsResponse> {
    return this.transport.call<AiSubscriptionsResponse>({ method: 'POST', path: '/v1/ai/subscriptions', retrySafe: true }, request, options);
  }

  /** Cash-flow balance forecast over a configurable horizon. */
  cashflow(request: AiCashflowRequest, options?: RequestOptions): Promise<AiCashflowResponse> {
    return this.transport.call<AiCashflowResponse>({ method: 'POST', path: '/v1/ai/cashflow', retrySafe: true }, request, options);
  }

  /** Resolve a raw descriptor to a merchant. */
  merchant(request: AiMerchantRequest, options?: RequestOptions): Promise<AiMerchantResponse> {
    return this.transport.call<AiMerchantResponse>({ method: 'POST', path: '/v1/ai/merchant', retrySafe: true }, request, options);
  }

  /** Explainable 0-100 financial health score with subscores. */
  healthScore(request: AccessTokenRequest, options?: RequestOptions): Promise<AiHealthScoreResponse> {
    return this.transport.call<AiHealthScoreResponse>({ method: 'POST', path: '/v1/ai/health-score', retrySafe: true }, request, options);
  }

  /** Plain-language summary with highlights. */
  financialSummary(request: AccessTokenRequest, options?: RequestOptions): Promise<AiFinancialSummaryResponse> {
    return this.transport.call<AiFinancialSummaryResponse>({ method: 'POST', path: '/v1/ai/financial-summary', retrySafe: true }, request, options);
  }

  /** Fraud risk signals with an overall grade. */
  fraudRisk(request: AiFraudRiskRequest, options?: RequestOptions): Promise<AiFraudRiskResponse> {
    return this.transport.call<AiFraudRiskResponse>({ method: 'POST', path: '/v1/ai/fraud-risk', retrySafe: true }, request, options);
  }

  /** Buy, wait or skip analysis of a planned purchase, with opportunity cost. */
  purchaseAnalysis(request: AiPurchaseAnalysisRequest, options?: RequestOptions): Promise<AiPurchaseAnalysisResponse> {
    return this.transport.call<AiPurchaseAnalysisResponse>({ method: 'POST', path: '/v1/ai/purchase-analysis', retrySafe: true }, request, options);
  }

  /** Narrative weekly report. */
  weeklyReport(request: AiWeeklyReportRequest, options?: RequestOptions): Promise<AiWeeklyReportResponse> {
    return this.transport.call<AiWeeklyReportResponse>({ method: 'POST', path: '/v1/ai/weekly-report', retrySafe: true }, request, options);
  }
}

/** The webhooks method group (`client.webhooks`). */
export class WebhooksApi {
  constructor(private readonly transport: Transport) {}

  /** The key's environment's webhook endpoints. */
  endpointsList(request: WebhooksEndpointsListRequest = {}, options?: RequestOptions): Promise<WebhooksEndpointsListResponse> {
    return this.transport.call<WebhooksEndpointsListResponse>({ method: 'POST', path: '/v1/webhooks/endpoints/list', retrySafe: true }, request, options);
  }

  /** Register an endpoint (idempotent per URL); the environment signing secret is returned only when this call created it. */
  endpointsCreate(request: WebhooksEndpointsCreateRequest, options?: RequestOptions): Promise<WebhooksEndpointsCreateResponse> {
    return this.transport.call<WebhooksEndpointsCreateResponse>({ method: 'POST', path: '/v1/webhooks/endpoints/create', retrySafe: true }, request, options);
  }

  /**
   * Delete an endpoint; its pending deliveries are cancelled.
   * Not retried after a 5xx or a network error (not safe to repeat).
   */
  endpointsDelete(request: WebhooksEndpointsDeleteRequest, options?: RequestOptions): Promise<WebhooksEndpointsDeleteResponse> {
    return this.transport.call<WebhooksEndpointsDeleteResponse>({ method: 'POST', path: '/v1/webhooks/endpoints/delete', retrySafe: false }, request, options);
  }

  /**
   * Rotate the signing secret; the old one keeps signing (beside the new) for the grace period.
   * Not retried after a 5xx or a network error (not safe to repeat).
   */
  secretRotate(request: WebhooksSecretRotateRequest = {}, options?: RequestOptions): Promise<WebhooksSecretRotateResponse> {
    return this.transport.call<WebhooksSecretRotateResponse>({ method: 'POST', path: '/v1/webhooks/secret/rotate', retrySafe: false }, request, options);
  }

  /** Recent deliveries, newest first, with every attempt (time, status code, latency, error). */
  deliveriesList(request: WebhooksDeliveriesListRequest = {}, options?: RequestOptions): Promise<WebhooksDeliveriesListResponse> {
    return this.transport.call<WebhooksDeliveriesListResponse>({ method: 'POST', path: '/v1/webhooks/deliveries/list', retrySafe: true }, request, options);
  }

  /** Deliver an event again (to one endpoint or all), as a new delivery with the same event id. */
  eventsReplay(request: WebhooksEventsReplayRequest, options?: RequestOptions): Promise<WebhooksEventsReplayResponse> {
    return this.transport.call<WebhooksEventsReplayResponse>({ method: 'POST', path: '/v1/webhooks/events/replay', retrySafe: true }, request, options);
  }
}

/** The sandbox method group (`client.sandbox`). */
export class SandboxApi {
  constructor(private readonly transport: Transport) {}

  /**
   * Create a public token for a sandbox institution without the browser (CI helper).
   * Sandbox only: test keys.
   * Not retried after a 5xx or a network error (not safe to repeat).
   */
  publicTokenCreate(request: SandboxPublicTokenCreateRequest, options?: RequestOptions): Promise<SandboxPublicTokenCreateResponse> {
    return this.transport.call<SandboxPublicTokenCreateResponse>({ method: 'POST', path: '/v1/sandbox/public_token/create', retrySafe: false }, request, options);
  }

  /**
   * Fire a chosen webhook event for an item.
   * Sandbox only: test keys.
   * Not retried after a 5xx or a network error (not safe to repeat).
   */
  fireWebhook(request: SandboxFireWebhookRequest, options?: RequestOptions): Promise<SandboxFireWebhookResponse> {
    return this.transport.call<SandboxFireWebhookResponse>({ method: 'POST', path: '/v1/sandbox/fire_webhook', retrySafe: false }, request, options);
  }

  /**
   * Put an item into login_required (fires item.error).
   * Sandbox only: test keys.
   * Not retried after a 5xx or a network error (not safe to repeat).
   */
  itemResetLogin(request: AccessTokenRequest, options?: RequestOptions): Promise<SandboxItemResetLoginResponse> {
    return this.transport.call<SandboxItemResetLoginResponse>({ method: 'POST', path: '/v1/sandbox/item/reset_login', retrySafe: false }, request, options);
  }
}

/** Every method group, as the client exposes them. */
export class MethodGroups {
  readonly institutions: InstitutionsApi;
  readonly link: LinkApi;
  readonly items: ItemsApi;
  readonly accounts: AccountsApi;
  readonly transactions: TransactionsApi;
  readonly products: ProductsApi;
  readonly ai: AiApi;
  readonly webhooks: WebhooksApi;
  readonly sandbox: SandboxApi;

  constructor(transport: Transport) {
    this.institutions = new InstitutionsApi(transport);
    this.link = new LinkApi(transport);
    this.items = new ItemsApi(transport);
    this.accounts = new AccountsApi(transport);
    this.transactions = new TransactionsApi(transport);
    this.products = new ProductsApi(transport);
    this.ai = new AiApi(transport);
    this.webhooks = new WebhooksApi(transport);
    this.sandbox = new SandboxApi(transport);
  }
}
