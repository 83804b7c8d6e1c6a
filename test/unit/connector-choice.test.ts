// Link decides which connector serves a session without building it (functions/connectors/choice.ts),
// then builds it from the adapters of the step's method (functions/connectors/by-method): the table
// of methods and the sets must agree with the adapters themselves and with connectorFor.
import { ALL_ADAPTERS, adapterIds, connectorFor, connectorNamed } from '../../functions/connectors';
import { API_KEY_OR_ADDRESS_ADAPTERS } from '../../functions/connectors/by-method/api-key-or-address';
import { CREDENTIALS_ADAPTERS } from '../../functions/connectors/by-method/credentials';
import { FILE_ADAPTERS } from '../../functions/connectors/by-method/file';
import { OAUTH_ADAPTERS } from '../../functions/connectors/by-method/oauth';
import { ADAPTER_LINK_METHODS, chooseConnector, namedConnector } from '../../functions/connectors/choice';
import { buildAdapter, type AdapterSet } from '../../functions/connectors/registry';
import { ApiError } from '../../functions/contracts/errors';
import type { LinkMethod } from '../../functions/core/connector-port';
import { CONNECTORS } from '../../functions/core/connectors';
import { CATALOG } from '../../functions/core/institutions-catalog';

const SETS: [string, AdapterSet, readonly LinkMethod[]][] = [
  ['credentials', CREDENTIALS_ADAPTERS, ['credentials']],
  ['oauth', OAUTH_ADAPTERS, ['oauth']],
  ['api key or address', API_KEY_OR_ADDRESS_ADAPTERS, ['api_key', 'address']],
  ['file', FILE_ADAPTERS, ['file']],
];

/** Every connector's variables set, so each chain entry that may serve does. */
const EVERYTHING_CONFIGURED = Object.fromEntries(CONNECTORS.flatMap((c) => c.credentials.map((name) => [name, 'x'])));

function outcome<T>(fn: () => T): T | string {
  try {
    return fn();
  } catch (err) {
    if (err instanceof ApiError) return `${err.code}: ${err.message}`;
    throw err;
  }
}

describe('the Link methods of the adapters', () => {
  it('name every adapter of the release, with the method its adapter has', () => {
    expect([...ADAPTER_LINK_METHODS.keys()].sort()).toEqual(adapterIds().sort());
    const built = adapterIds().map((id) => [id, buildAdapter(ALL_ADAPTERS, id, {})!.linkMethod]);
    expect(built).toEqual(adapterIds().map((id) => [id, ADAPTER_LINK_METHODS.get(id)]));
  });

  it.each(SETS)('the %s set holds every adapter of its methods, each built with its method', (_name, set, methods) => {
    const expected = [...ADAPTER_LINK_METHODS].filter(([, method]) => methods.includes(method)).map(([id]) => id);
    // The sandbox serves its OAuth institutions with its OAuth variant.
    if (methods.includes('oauth')) expected.push('sandbox');
    expect([...set.keys()].sort()).toEqual(expected.sort());
    for (const id of set.keys()) expect(methods).toContain(buildAdapter(set, id, {})!.linkMethod);
  });
});

describe('chooseConnector', () => {
  const configs = { nothing: {}, everything: EVERYTHING_CONFIGURED };
  it.each(['test', 'live'] as const)('decides as connectorFor does, for every institution of the catalogue (%s keys)', (environment) => {
    for (const [configName, env] of Object.entries(configs)) {
      for (const institution of CATALOG) {
        for (const method of [undefined, 'file'] as const) {
          const built = outcome(() => connectorFor(environment, institution, env, method));
          const chosen = outcome(() => chooseConnector(environment, institution, env, method));
          const expected = typeof built === 'string' ? built : { id: built.id, linkMethod: built.linkMethod };
          expect({ configName, institution: institution.institution_id, method, chosen }).toEqual({ configName, institution: institution.institution_id, method, chosen: expected });
        }
      }
    }
  });

  it('names an item\'s connector as connectorNamed does, and refuses an unknown one', () => {
    for (const id of [...adapterIds(), 'no_such_connector']) {
      const built = outcome(() => connectorNamed(id, {}));
      const expected = typeof built === 'string' ? built : { id: built.id, linkMethod: built.linkMethod };
      expect(outcome(() => namedConnector(id))).toEqual(expected);
    }
  });
});
