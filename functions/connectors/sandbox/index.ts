// The sandbox simulator behind the connector port: deterministic data per (institution, sandbox
// username), computed on every call from the pure simulators in core/sandbox (no I/O, no clock:
// `today` comes from the caller). Serves every test-key item and never live traffic. Its reads
// (accounts, products) are ./reads.ts, which the read routes bundle without the rest.
import { SANDBOX_CONNECTOR_ID } from '../../core/connectors';
import type { ConnectorPort, Credentials, LoginResult, SourceBatch } from '../../core/connector-port';
import { generateSandboxItem, type SandboxItemData } from '../../core/sandbox/generator';
import { isCorrectMfaCode, SANDBOX_MFA_PROMPT, SANDBOX_PASSWORD, sandboxOutcome } from '../../core/sandbox/login';
import { sandboxSourceAt } from '../../core/sandbox/refresh-sim';
import { SANDBOX_OAUTH_AUTHORIZE_PATH } from './oauth-bank';
import { loginOf, sandboxReads } from './reads';

/** The simulator reports its whole 24-month window on every pull, as a statement would. */
const asWindow = (data: SandboxItemData): SourceBatch => ({ accounts: data.accounts, transactions: { kind: 'window', transactions: data.transactions } });

export const sandboxConnector: ConnectorPort = {
  ...sandboxReads,
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

  async initialHistory(connection, today) {
    return asWindow(generateSandboxItem(loginOf(connection), today));
  },

  async refresh(connection, today, refreshCount) {
    return asWindow(sandboxSourceAt(loginOf(connection), today, refreshCount));
  },
};

/** The credentials a sandbox username logs in with (the browser-free sandbox helpers use them). */
export const sandboxCredentials = (username: string): Credentials => ({ username, password: SANDBOX_PASSWORD });

export { SANDBOX_OAUTH_AUTHORIZE_PATH, SANDBOX_OAUTH_CODE } from './oauth-bank';
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
