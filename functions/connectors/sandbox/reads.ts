// The sandbox simulator's reads of a stored item: its accounts and the institution-reported
// products, computed from the generator (core/sandbox/generator) and the product simulators. The
// whole connector (./index.ts) adds Link's login and the pulls, whose refresh simulator (and the
// descriptor rules it names transactions with) the product and balance reads never run, so their
// routes bundle this module alone (../readers.ts).
import { SANDBOX_CONNECTOR_ID } from '../../core/connectors';
import type { Connection, ProductContext } from '../../core/connector-port';
import { generateSandboxItem, type SandboxItemData, type SandboxLogin } from '../../core/sandbox/generator';
import { sandboxIdentity, sandboxInvestments, sandboxLiabilities } from '../../core/sandbox/products';
import type { ConnectorReads } from '../registry';

export const loginOf = (connection: Connection): SandboxLogin => ({ institutionId: connection.institutionId, username: connection.login });

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

export const sandboxReads: ConnectorReads = {
  id: SANDBOX_CONNECTOR_ID,
  linkMethod: 'credentials',

  async accounts(connection, today) {
    return generateSandboxItem(loginOf(connection), today).accounts;
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
