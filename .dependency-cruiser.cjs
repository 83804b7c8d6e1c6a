// Import boundaries between the layers (docs/architecture.md, "Layers"). Each rule names what a
// layer may NOT import; `npm run lint` runs this beside ESLint and `npm test` runs both.
//
//   contracts  <- core <- connectors
//                  core <- platform <- data <- app <- api, workers
//                                      data <- edge <- api
//   surfaces (GraphQL schema, MCP server) sit beside api: they call use cases and route handlers.
//   browser (the Link page's own code) sees the contract's types and the page protocol only.
//   consoleUi (the console page's server side) is edge-like; consoleBrowser (the console app, React)
//   sees the contract and the console permission table (pure) only.
//   platform/local is the local composition root and may import anything.
const layer = {
  contracts: '^functions/contracts/',
  core: '^functions/core/',
  connectors: '^functions/connectors/',
  platform: '^functions/platform/(runtime|ports|observability|aws-ports|aws-call-tracing|bundled-sdks|model-port|model-bedrock|model-openai|model-environment|console-identity|console-identity-cognito|packed-assets)\\.ts$|^functions/platform/crypto/|^functions/platform/aws/',
  data: '^functions/data/',
  app: '^functions/app/',
  edge: '^functions/platform/(middleware|operation|fallback|openapi|llms|protocols|route-functions)\\.ts$|^functions/platform/link-ui/(?!browser/)',
  browser: '^functions/platform/link-ui/browser/',
  consoleUi: '^functions/console-ui/(?!browser/)',
  consoleBrowser: '^functions/console-ui/browser/',
  surfaces: '^functions/surfaces/',
  api: '^functions/api/',
  workers: '^functions/workers/',
  local: '^functions/platform/local/',
};
const any = (...names) => names.map((n) => layer[n]).join('|');

/** A rule: files of `from` may import only files of `allowed` (and packages), plus the single files `alsoAllowed` matches. */
const only = (from, allowed, comment, alsoAllowed) => ({
  name: `${from}-imports-only-${allowed.join('-') || 'itself'}`,
  comment,
  severity: 'error',
  from: { path: layer[from] },
  to: { path: '^functions/', pathNot: [any(from, ...allowed), alsoAllowed].filter(Boolean).join('|') },
});

/** Node built-ins that do I/O; the pure ones (node:crypto hashing, node:net's isIP) stay allowed. */
const IO_MODULES = '^(node:)?(fs|fs/promises|http|https|http2|dns|dns/promises|child_process|dgram|tls|worker_threads)$';

module.exports = {
  forbidden: [
    only('contracts', [], 'The contract is the root: schemas and constants, nothing of ours beneath it.'),
    only('core', ['contracts'], 'Domain rules are plain functions over the contract: no I/O, no runtime.'),
    only('connectors', ['contracts', 'core'], 'Connector adapters implement the core port; the app picks one.'),
    only('platform', ['contracts', 'core'], 'Runtime plumbing (deps, ports, logging, crypto) knows no repository or use case.'),
    only('data', ['contracts', 'core', 'platform'], 'Repositories read and write rows; they never call a use case.'),
    only('app', ['contracts', 'core', 'connectors', 'data', 'platform'], 'Use cases compose repositories and connectors; they know nothing of HTTP.'),
    only(
      'edge',
      ['contracts', 'core', 'data', 'platform'],
      'The HTTP edge (middleware, documents, the Link page) never calls a use case; handlers do. The documents may state the webhook retry schedule (a pure declaration CDK reads too).',
      '^functions/workers/webhook-schedule\\.ts$',
    ),
    {
      name: 'browser-imports-only-contract-types-and-the-page-protocol',
      comment: 'The Link page runs in the user\'s browser: it may read the contract (types, inlined constants), the page protocol and its catalogues (i18n), nothing server-side.',
      severity: 'error',
      from: { path: layer.browser },
      to: { path: '^functions/', pathNot: `${layer.browser}|${layer.contracts}|^functions/platform/link-ui/(protocol|icons)\\.ts$|^functions/platform/link-ui/i18n/` },
    },
    only('consoleUi', ['contracts', 'core', 'platform'], 'The console page (shell and packed assets) is edge-like: it serves files, never a use case or a repository.'),
    {
      name: 'console-browser-imports-only-contract-and-permission-table',
      comment: 'The console app runs in the user\'s browser: it may read the contract and the permission table (pure), nothing else server-side.',
      severity: 'error',
      from: { path: layer.consoleBrowser },
      to: { path: '^functions/', pathNot: `${layer.consoleBrowser}|${layer.contracts}|^functions/core/console-permissions\\.ts$` },
    },
    only(
      'surfaces',
      ['contracts', 'core', 'data', 'app', 'platform', 'edge', 'api'],
      'The GraphQL and MCP surfaces re-expose the REST routes: they call the same use cases (GraphQL) or the routes\' own handler code (MCP).',
    ),
    only('api', ['contracts', 'core', 'data', 'app', 'platform', 'edge', 'surfaces', 'consoleUi'], 'Route handlers are thin: they bind a route to a use case.'),
    only('workers', ['contracts', 'core', 'data', 'app', 'platform'], 'Workers bind a queue or workflow message to a use case.'),
    {
      name: 'every-file-belongs-to-a-layer',
      comment: 'A file outside every layer escapes every rule: place it in one (and in docs/architecture.md).',
      severity: 'error',
      from: { path: '^functions/', pathNot: Object.values(layer).join('|') },
      to: {},
    },
    {
      name: 'simulators-only-behind-the-sandbox-connector',
      comment: 'App code reaches the sandbox simulators only through the connector port (functions/connectors/sandbox).',
      severity: 'error',
      from: { path: '^functions/', pathNot: '^functions/connectors/sandbox/|^functions/core/sandbox/' },
      to: { path: '^functions/core/sandbox/' },
    },
    {
      name: 'pure-layers-do-no-io',
      comment:
        'contracts, core and connectors are plain functions: no AWS SDK, no file, network or process I/O. ' +
        'The one exception is the webhook URL guard, which must resolve a host to check where it points.',
      severity: 'error',
      from: { path: any('contracts', 'core', 'connectors', 'browser', 'consoleBrowser'), pathNot: '^functions/core/webhook-url\\.ts$' },
      to: { path: `(^|node_modules/)@aws-sdk/|${IO_MODULES}` },
    },
    {
      name: 'aws-sdk-only-in-repositories-and-platform',
      comment: 'Tables, queues, workflows and keys are reached through repositories (data) and ports (platform), never directly.',
      severity: 'error',
      from: { path: '^functions/', pathNot: any('data', 'platform', 'local') },
      to: { path: '(^|node_modules/)@aws-sdk/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'infra-code-stays-out-of-use-cases',
      comment:
        'CDK (lib/) reads the contract, the key schema, the workflow definitions and the few pure declarations both sides share (the bundle switches, the refresh cadence); never runtime code paths.',
      severity: 'error',
      from: { path: '^lib/' },
      to: {
        path: '^functions/',
        pathNot:
          '^functions/contracts/|^functions/data/keys\\.ts$|^functions/workers/(state-machines|webhook-schedule)\\.ts$|^functions/platform/bundled-sdks\\.ts$|^functions/core/refresh-schedule\\.ts$',
      },
    },
    {
      name: 'no-circular',
      comment: 'Cycles hide which module owns a concept.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'not-to-dev-dep',
      comment: 'Code that ships in a Lambda bundle must not import a devDependency.',
      severity: 'error',
      from: { path: '^functions/', pathNot: '^functions/platform/local/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(cdk\\.out|coverage|\\.data|\\.scratch)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
