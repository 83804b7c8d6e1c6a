// The sandbox simulator behind the connector port: deterministic data per (institution, sandbox
// username), computed on every call from the pure simulators in core/sandbox (no I/O, no clock:
// `today` comes from the caller). Serves every test-key item and never live traffic.
import { SANDBOX_CONNECTOR_ID } from '../../core/connectors';
import type { Connection, ConnectorPort, Credentials, LoginResult, ProductContext, SourceBatch } from '../../core/connector-port';
import { generateSandboxItem, type SandboxItemData, type SandboxLogin } from '../../core/sandbox/generator';
import { isCorrectMfaCode, SANDBOX_MFA_PROMPT, SANDBOX_PASSWORD, sandboxOutcome } from '../../core/sandbox/login';
import { sandboxIdentity, sandboxInvestments, sandboxLiabilities } from '../../core/sandbox/products';
import { sandboxSourceAt } from '../../core/sandbox/refresh-sim';

const loginOf = (connection: Connection): SandboxLogin => ({ institutionId: connection.institutionId, username: connection.login });

/** The simulator reports its whole 24-month window on every pull, as a statement would. */
const asWindow = (data: SandboxItemData): SourceBatch => ({ accounts: data.accounts, transactions: { kind: 'window', transactions: data.transactions } });

/**
 * The simulator's view of the item with the balances the API serves in place of freshly generated
 * ones, so holdings and liabilities reconcile with what accounts/get shows.
 */
function servedData(connection: Connection, context: ProductContext): SandboxItemData {
  const generated = generateSandboxItem(loginOf(connection), context.today);
  const served = new Map(context.accounts.map((a) => [a.account_id, a]));
  const accounts = generated.accounts.map((a) => {
    const shown = served.get(a.account_id);
    return shown ? { ...a, balances: shown.balances } : a;
  });
  return { ...generated, accounts };
}

export const sandboxConnector: ConnectorPort = {
  id: SANDBOX_CONNECTOR_ID,
  linkMethod: 'credentials',

  async login(institutionId: string, credentials: Credentials): Promise<LoginResult> {
    const connection = { institutionId, login: credentials.username };
    switch (sandboxOutcome(credentials.username, credentials.password)) {
      case 'connected':
        return { status: 'connected', connection };
      case 'mfa':
        return { status: 'mfa_required', connection, prompt: SANDBOX_MFA_PROMPT };
      case 'locked':
        return { status: 'locked' };
      case 'invalid':
        return { status: 'invalid_credentials' };
    }
  },

  async verifyMfaCode(_connection, code) {
    return isCorrectMfaCode(code);
  },

  async accounts(connection, today) {
    return generateSandboxItem(loginOf(connection), today).accounts;
  },

  async initialHistory(connection, today) {
    return asWindow(generateSandboxItem(loginOf(connection), today));
  },

  async refresh(connection, today, refreshCount) {
    return asWindow(sandboxSourceAt(loginOf(connection), today, refreshCount));
  },

  async identity(connection, context) {
    return sandboxIdentity(loginOf(connection), servedData(connection, context));
  },

  async liabilities(connection, context) {
    return sandboxLiabilities(loginOf(connection), servedData(connection, context), context.today);
  },

  async investments(connection, context) {
    return sandboxInvestments(loginOf(connection), servedData(connection, context), context.today);
  },
};

/** The credentials a sandbox username logs in with (the browser-free sandbox helpers use them). */
export const sandboxCredentials = (username: string): Credentials => ({ username, password: SANDBOX_PASSWORD });

/** Where the simulated bank's consent page is served: next to Link's own OAuth callback. */
export const SANDBOX_OAUTH_AUTHORIZE_PATH = '/link/sandbox/oauth/authorize';
/** The code the simulated bank sends back to Link's callback when the user allows access. */
export const SANDBOX_OAUTH_CODE = 'sandbox_authorized';
/** The sandbox login an OAuth consent connects: the same deterministic data as `user_good`. */
const SANDBOX_OAUTH_LOGIN = 'user_good';

/**
 * The sandbox's OAuth institutions (`oauth: true` in the catalogue) for test keys: instead of the
 * credential screen, Link sends the user to a simulated bank consent page this deployment serves
 * (/link/sandbox/oauth/authorize, whose form POSTs the answer), which sends them back with the state (and a code, or
 * `error=access_denied`). The data is the simulator's, as for every sandbox item.
 */
export const sandboxOauthConnector: ConnectorPort = {
  ...sandboxConnector,
  linkMethod: 'oauth',

  async beginOauth({ institutionId, state, redirectUri }) {
    // Link's callback is {base}/link/oauth/callback: the simulated bank lives under the same base.
    const authorize = new URL(redirectUri.replace(/\/link\/oauth\/callback$/, SANDBOX_OAUTH_AUTHORIZE_PATH));
    authorize.searchParams.set('institution_id', institutionId);
    authorize.searchParams.set('state', state);
    return { authorizeUrl: authorize.toString(), pending: { login: SANDBOX_OAUTH_LOGIN } };
  },

  async connect(institutionId, input) {
    // The simulated bank's consent needs no exchange: coming back with the state (not an error) is the grant.
    if (input.method !== 'oauth') return { status: 'invalid_credentials', message: 'This sandbox institution connects through its OAuth consent page.' };
    return { status: 'connected', connection: { institutionId, login: input.pending.login ?? SANDBOX_OAUTH_LOGIN } };
  },
};

/**
 * The sandbox connector of an institution for test keys: its OAuth variant for the sandbox network's
 * own OAuth institutions. Real institutions keep the credential screen for test keys, OAuth or not.
 */
export function sandboxConnectorFor(institution: { oauth?: boolean; sandbox?: boolean }): ConnectorPort {
  return institution.oauth === true && institution.sandbox === true ? sandboxOauthConnector : sandboxConnector;
}
