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
