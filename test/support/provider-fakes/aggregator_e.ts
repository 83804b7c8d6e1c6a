// A loopback fake of Aggregator E's documented API: /Authorize on a loginId (cached mode), then
// /GetAccountsDetail answering 202 OPERATION_PENDING until the data is ready and the polling
// companion /GetAccountsDetailAsync/{requestId}; the x-api-key header on data calls; FlinksCode
// error bodies. Values are invented; shapes follow the provider's public API reference.
import { startFakeServer, type FakeRequest, type FakeResponse, type FakeServer } from './fake-server';

export const E_CUSTOMER = '1d2c3b4a-0000-4000-8000-000000000001';
export const E_API_KEY = 'api-key-e-private';
export const E_LOGIN = '5e115eac-1209-4f19-641c-08d6d484e2fe';
export const E_REQUEST = 'aaaabbbb-cccc-4ddd-8eee-ffff00001111';

export interface AggregatorEState {
  /** How many detail calls answer 202 before the data is ready. */
  pendingPolls: number;
  accounts: unknown[];
  /** A FlinksCode /Authorize answers with (401) instead of a session. */
  authorizeError: string | null;
}

export const eChequing = {
  Id: 'acct-e-1',
  Title: 'Chequing',
  AccountNumber: '1111-222-3344',
  Balance: { Available: 1500.5, Current: 1500.5, Limit: null },
  Category: 'Operations',
  Type: 'Chequing',
  Currency: 'CAD',
  Holder: { Name: 'Jordan Tremblay', Address: { CivicAddress: '10 Rue Principale', City: 'Montreal', Province: 'QC', PostalCode: 'H2X 1Y4', Country: 'CA' }, Email: 'jordan@example.ca', PhoneNumber: '(514) 555-0199' },
  Transactions: [
    { Id: 'tx-1', Date: '2026/06/29', Code: null, Description: 'PAIEMENT EPICERIE', Debit: 45.1, Credit: null, Balance: 1500.5 },
    { Id: 'tx-2', Date: '2026-06-15', Code: null, Description: 'PAYROLL DEPOSIT', Debit: null, Credit: 2100, Balance: 1545.6 },
  ],
};

export function defaultEState(): AggregatorEState {
  return { pendingPolls: 1, accounts: [eChequing], authorizeError: null };
}

function route(state: AggregatorEState) {
  return (req: FakeRequest): FakeResponse => {
    const prefix = `/v3/${E_CUSTOMER}/BankingServices/`;
    if (!req.path.startsWith(prefix)) return { status: 404, body: { HttpStatusCode: 404, FlinksCode: 'NOT_FOUND' } };
    if (req.headers['x-api-key'] !== E_API_KEY) return { status: 401, body: { HttpStatusCode: 401, Message: 'Unauthorized' } };
    const op = req.path.slice(prefix.length);
    const body = (req.parsed ?? {}) as Record<string, unknown>;
    if (op === 'Authorize') {
      if (body.LoginId !== E_LOGIN || body.MostRecentCached !== true) return { status: 401, body: { HttpStatusCode: 401, FlinksCode: 'INVALID_LOGIN', Message: 'invalid login' } };
      if (state.authorizeError) return { status: 401, body: { HttpStatusCode: 401, FlinksCode: state.authorizeError, Message: 'x' } };
      return { status: 200, body: { HttpStatusCode: 200, RequestId: E_REQUEST, Login: { Id: E_LOGIN } } };
    }
    const ready = (): FakeResponse => {
      if (state.pendingPolls > 0) {
        state.pendingPolls -= 1;
        return { status: 202, body: { HttpStatusCode: 202, FlinksCode: 'OPERATION_PENDING', Message: 'Your operation is still processing', RequestId: E_REQUEST } };
      }
      return { status: 200, body: { HttpStatusCode: 200, Accounts: state.accounts, RequestId: E_REQUEST } };
    };
    if (op === 'GetAccountsDetail') {
      if (body.RequestId !== E_REQUEST) return { status: 400, body: { HttpStatusCode: 400, FlinksCode: 'INVALID_REQUEST_ID' } };
      return ready();
    }
    if (op === `GetAccountsDetailAsync/${E_REQUEST}` && req.method === 'GET') return ready();
    return { status: 404, body: { HttpStatusCode: 404, FlinksCode: 'NOT_FOUND' } };
  };
}

export async function startAggregatorEFake(state: AggregatorEState = defaultEState()): Promise<FakeServer & { state: AggregatorEState }> {
  return Object.assign(await startFakeServer(route(state)), { state });
}
