import { connectorFor, connectorOfItem, sandboxCredentials } from '../../functions/connectors';
import { sandboxConnector } from '../../functions/connectors/sandbox';
import { ApiError } from '../../functions/contracts/errors';
import { SANDBOX_CONNECTOR_ID } from '../../functions/core/connectors';
import { findInstitution } from '../../functions/core/institutions';
import { generateSandboxItem } from '../../functions/core/sandbox/generator';
import { sandboxIdentity } from '../../functions/core/sandbox/products';
import { sandboxSourceAt } from '../../functions/core/sandbox/refresh-sim';

const TODAY = '2026-07-01';
const BANK = findInstitution('ins_sandbox_first_bank')!;
/** A live institution whose chain starts with aggregator_a. */
const LIVE = { connectors: ['aggregator_a', 'processor_link'] };
/** The same chain ending in the file importer, which needs nothing from the operator. */
const LIVE_WITH_IMPORT = { connectors: ['aggregator_a', 'file_import'] };
const AGGREGATOR_A_ENV = { AGGREGATOR_A_CLIENT_ID: 'id', AGGREGATOR_A_SECRET: 'secret' };
/** processor_link is withheld (a known flaw, docs/connectors.md): its variables never enable it. */
const PROCESSOR_LINK_ENV = { PROCESSOR_LINK_SECRET_KEY: 'sk', PROCESSOR_LINK_LAUNCH_URL: 'https://launch.example/' };

function errorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected an ApiError');
}

describe('connectorFor (Link)', () => {
  it('serves every test key with the sandbox simulator, whatever the deployment configures', () => {
    expect(connectorFor('test', BANK, {}).id).toBe(SANDBOX_CONNECTOR_ID);
    expect(connectorFor('test', LIVE, AGGREGATOR_A_ENV)).toBe(sandboxConnector);
  });

  it('answers provider_error for a live key when no connector of the chain is configured', () => {
    const err = errorOf(() => connectorFor('live', LIVE, {}));
    expect([err.code, err.status, err.message]).toEqual(['provider_error', 502, new ApiError('provider_error').message]);
  });

  it('serves a live key with the first configured connector of the chain', () => {
    expect(connectorFor('live', LIVE, AGGREGATOR_A_ENV).id).toBe('aggregator_a');
  });

  it('never serves a live key with a withheld connector, even with its variables set', () => {
    expect(errorOf(() => connectorFor('live', LIVE, PROCESSOR_LINK_ENV)).code).toBe('provider_error');
    expect(connectorFor('live', LIVE, { ...PROCESSOR_LINK_ENV, ...AGGREGATOR_A_ENV }).id).toBe('aggregator_a');
  });

  it('falls through to the file importer at the end of a chain, which needs no configuration', () => {
    const importer = connectorFor('live', LIVE_WITH_IMPORT, {});
    expect([importer.id, importer.linkMethod]).toEqual(['file_import', 'file']);
    expect(connectorFor('live', LIVE_WITH_IMPORT, AGGREGATOR_A_ENV).id).toBe('aggregator_a');
  });

  it('serves an uploaded statement with the file importer in both environments, where the chain lists it', () => {
    expect(connectorFor('test', BANK, {}, 'file').id).toBe('file_import');
    expect(connectorFor('live', LIVE_WITH_IMPORT, AGGREGATOR_A_ENV, 'file').id).toBe('file_import');
    expect(errorOf(() => connectorFor('live', LIVE, AGGREGATOR_A_ENV, 'file')).code).toBe('provider_error');
  });

  it('never lets a live key reach the simulator, even on a sandbox institution', () => {
    expect(errorOf(() => connectorFor('live', BANK, {})).code).toBe('provider_error');
  });
});

describe('connectorOfItem (stored items)', () => {
  it('reaches a sandbox item through its login', () => {
    const { connector, connection } = connectorOfItem({ connector: 'sandbox', institutionId: BANK.institution_id, connectionLogin: 'user_good_x1' });
    expect(connector).toBe(sandboxConnector);
    expect(connection).toEqual({ institutionId: BANK.institution_id, login: 'user_good_x1' });
  });

  it('hands the adapter the item\u2019s opened secrets and its refresh cursor', () => {
    const { connector, connection } = connectorOfItem(
      { connector: 'aggregator_a', institutionId: 'ins_x', connectionLogin: 'item-ref', connectorCursor: 'c-42' },
      AGGREGATOR_A_ENV,
      { access_token: 'tok' },
    );
    expect(connector.id).toBe('aggregator_a');
    expect(connection).toEqual({ institutionId: 'ins_x', login: 'item-ref', secrets: { access_token: 'tok' }, cursor: 'c-42' });
  });

  it('answers provider_error for a connector the registry does not know, or an item without a login', () => {
    expect(errorOf(() => connectorOfItem({ connector: 'retired_connector', institutionId: 'ins_x', connectionLogin: 'user_good' })).code).toBe('provider_error');
    expect(errorOf(() => connectorOfItem({ connector: 'sandbox', institutionId: BANK.institution_id, connectionLogin: null })).code).toBe('provider_error');
  });
});

describe('the sandbox adapter', () => {
  const connection = { institutionId: BANK.institution_id, login: 'user_good' };

  it('answers the Link outcomes of the sandbox logins', async () => {
    const login = (username: string, password = 'pass_good') => sandboxConnector.login(BANK.institution_id, { username, password });
    expect(await login('user_good')).toEqual({ status: 'connected', connection });
    expect(await login('user_mfa')).toEqual({
      status: 'mfa_required',
      connection: { institutionId: BANK.institution_id, login: 'user_mfa' },
      prompt: expect.stringContaining('4-digit code'),
    });
    expect(await login('user_locked')).toEqual({ status: 'locked' });
    expect(await login('user_good', 'wrong')).toEqual({ status: 'invalid_credentials' });
    expect(await login('someone')).toEqual({ status: 'invalid_credentials' });
    expect(await sandboxConnector.login(BANK.institution_id, sandboxCredentials('user_good_ci'))).toMatchObject({ status: 'connected' });
  });

  it('checks the MFA code', async () => {
    expect([
      await sandboxConnector.verifyMfaCode(connection, '1234'),
      await sandboxConnector.verifyMfaCode(connection, ' 1234 '),
      await sandboxConnector.verifyMfaCode(connection, '4321'),
    ]).toEqual([true, true, false]);
  });

  it('reports the simulator data as window batches: history, refresh steps and accounts', async () => {
    const generated = generateSandboxItem({ institutionId: BANK.institution_id, username: 'user_good' }, TODAY);
    const window = (data: { accounts: unknown[]; transactions: unknown[] }) => ({ accounts: data.accounts, transactions: { kind: 'window', transactions: data.transactions } });
    expect(await sandboxConnector.initialHistory(connection, TODAY)).toEqual(window(generated));
    expect(await sandboxConnector.accounts(connection, TODAY)).toEqual(generated.accounts);
    const step2 = sandboxSourceAt({ institutionId: BANK.institution_id, username: 'user_good' }, TODAY, 2);
    expect(await sandboxConnector.refresh(connection, TODAY, 2)).toEqual(window(step2));
  });

  it('computes the institution-reported products against the balances the API serves', async () => {
    const login = { institutionId: 'ins_sandbox_brokerage', username: 'user_good' };
    const brokerage = { institutionId: login.institutionId, login: login.username };
    const generated = generateSandboxItem(login, TODAY);
    expect(await sandboxConnector.identity(brokerage, { today: TODAY, accounts: generated.accounts })).toEqual(sandboxIdentity(login, generated));

    const investment = generated.accounts.find((a) => a.type === 'investment')!;
    const served = generated.accounts.map((a) => (a === investment ? { ...a, balances: { ...a.balances, current: a.balances.current + 1000 } } : a));
    const { holdings } = await sandboxConnector.investments(brokerage, { today: TODAY, accounts: served });
    const held = holdings.filter((h) => h.account_id === investment.account_id).reduce((sum, h) => sum + Math.round(h.value * 100), 0);
    expect(held).toBe(Math.round((investment.balances.current + 1000) * 100));
  });
});
