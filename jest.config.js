// Jest runs TypeScript through swc (type-checking is `npm run typecheck`). @middy/core is ESM-only,
// so it is the one package under node_modules that gets transformed.
//
// One project per test layer, so a run pays only for what its layer needs: `unit` and `cdk` start
// nothing, while `handlers`, `e2e`, `browser`, `security` and `rehearsal` share one DynamoDB Local. Jest runs a project's
// globalSetup only when at least one of that project's tests is selected, and runs each distinct
// setup module once per run, so `npx jest --selectProjects unit` never starts Java and a full run
// starts DynamoDB Local once.
const { readdirSync } = require('node:fs');
const { join, sep } = require('node:path');

/** What every project shares (project configs inherit nothing from the root config). */
const common = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  transform: { '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  transformIgnorePatterns: ['/node_modules/(?!(@middy)/)'],
  setupFiles: ['<rootDir>/test/support/test-env.ts'],
};

/** The layers that talk to DynamoDB Local (a fresh table per test file). */
const withDynamoDbLocal = {
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
};

/** @param {string} name the project, also the folder under test/ */
const layer = (name, extra = {}) => ({
  ...common,
  displayName: name,
  testMatch: [`<rootDir>/test/${name}/**/*.test.ts`],
  ...extra,
});

const layers = [
  layer('unit'),
  layer('cdk'),
  layer('handlers', withDynamoDbLocal),
  layer('e2e', withDynamoDbLocal),
  layer('browser', withDynamoDbLocal),
  layer('security', withDynamoDbLocal),
  // The deploy rehearsal: the synthesized bundles run as Lambda runs them (test/rehearsal/).
  layer('rehearsal', withDynamoDbLocal),
];

// A test file outside every layer's folder would match no project and silently never run.
const strayTests = readdirSync(join(__dirname, 'test'), { recursive: true })
  .map((path) => String(path).split(sep).join('/'))
  .filter((path) => path.endsWith('.test.ts') && !layers.some((l) => path.startsWith(`${l.displayName}/`)));
if (strayTests.length) {
  throw new Error(`test files outside the layers' folders (${layers.map((l) => `test/${l.displayName}/`).join(', ')}): ${strayTests.map((path) => `test/${path}`).join(', ')}`);
}

/**
 * FC_TEST_LAYER=e2e (or a comma-separated list) keeps only those layers: `npm run test:e2e` uses it
 * rather than `--selectProjects`, whose list would swallow the paths given after it
 * (`npm run test:e2e -- test/e2e/http.test.ts -t 'rate limit'` narrows as expected).
 */
function selectedLayers(selection = process.env.FC_TEST_LAYER) {
  if (!selection) return layers;
  const names = selection.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !layers.some((l) => l.displayName === name));
  if (unknown.length) {
    throw new Error(`FC_TEST_LAYER: no layer ${unknown.join(', ')} (layers: ${layers.map((l) => l.displayName).join(', ')})`);
  }
  return layers.filter((l) => names.includes(l.displayName));
}

/** @type {import('jest').Config} */
module.exports = {
  projects: selectedLayers(),
  maxWorkers: 2,
  testTimeout: 60000,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
