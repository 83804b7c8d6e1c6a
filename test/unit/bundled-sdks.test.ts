// A function's bundle carries exactly the optional AWS clients (functions/platform/aws/) its grants
// allow, and no AWS SDK package: the build-time switches drop the others (checked on a real esbuild
// build with the stack's define entries), and a call that would need a dropped client fails with a
// clear error instead of a missing-module crash.
import { build, type Metafile } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROUTES } from '../../functions/contracts/routes';
import type * as AwsPorts from '../../functions/platform/aws-ports';
import type * as KmsKeyProvider from '../../functions/platform/crypto/kms-key-provider';
import type * as BedrockModel from '../../functions/platform/model-bedrock';
import type * as RouteFunctions from '../../functions/platform/route-functions';
import { routeAccessFor, ROUTE_CAPABILITIES } from '../../lib/api-grants';
import { ALL_OPTIONAL_SDKS, bundledSdksFor, sdkDefines } from '../../lib/bundled-sdks';

const ROOT = join(__dirname, '..', '..');
const CLIENT_MODULES = {
  sqs: 'functions/platform/aws/sqs.ts',
  sfn: 'functions/platform/aws/sfn.ts',
  kms: 'functions/platform/aws/kms.ts',
  bedrock: 'functions/platform/aws/bedrock.ts',
  secretsManager: 'functions/platform/aws/secrets-manager.ts',
  lambda: 'functions/platform/aws/lambda.ts',
} as const;

let outDir: string;
beforeAll(() => {
  outDir = mkdtempSync(join(tmpdir(), 'fc-bundled-sdks-'));
});
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** Bundles the adapters that load optional SDKs, as lib/fincore-function.ts would for `bundled`. */
async function bundleAdapters(name: string, bundled: readonly (keyof typeof CLIENT_MODULES)[]): Promise<{ file: string; inputs: Set<string>; packages: Set<string> }> {
  const file = join(outDir, `${name}.js`);
  const result = await build({
    stdin: {
      contents:
        "export { createAwsPorts, createSecretsManagerConnectorConfig } from './functions/platform/aws-ports';\nexport { createKmsKeyProvider } from './functions/platform/crypto/kms-key-provider';\n" +
        "export { createBedrockModel } from './functions/platform/model-bedrock';\n" +
        "export { invokeRouteFunction } from './functions/platform/route-functions';",
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    outfile: file,
    metafile: true,
    logLevel: 'silent',
    define: sdkDefines(bundled),
  });
  const inputs = new Set(Object.keys((result.metafile as Metafile).inputs));
  const packages = new Set(
    [...inputs].map((input) => /node_modules\/(@[^/]+\/[^/]+|[^/@][^/]*)/.exec(input)?.[1]).filter((p): p is string => p !== undefined),
  );
  return { file, inputs, packages };
}

describe('optional AWS clients in a bundle', () => {
  it('a bundle built without a client does not carry its module, one built with it does, and neither carries an AWS SDK', async () => {
    const none = await bundleAdapters('none', []);
    const all = await bundleAdapters('all', ALL_OPTIONAL_SDKS);
    for (const module of Object.values(CLIENT_MODULES)) {
      expect(none.inputs.has(module)).toBe(false);
      expect(all.inputs.has(module)).toBe(true);
    }
    const sqsOnly = await bundleAdapters('sqs-only', ['sqs']);
    expect([...Object.values(CLIENT_MODULES)].filter((module) => sqsOnly.inputs.has(module))).toEqual(['functions/platform/aws/sqs.ts']);
    for (const bundle of [none, all, sqsOnly]) expect([...bundle.packages].filter((pkg) => pkg.startsWith('@aws-sdk/') || pkg.startsWith('@smithy/'))).toEqual([]);
  }, 60_000);

  it('a call that needs a client the bundle lacks fails with SdkNotBundledError, before any network', async () => {
    const { file } = await bundleAdapters('none-run', []);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the freshly built bundle
    const adapters = require(file) as typeof AwsPorts & typeof KmsKeyProvider & typeof BedrockModel & typeof RouteFunctions;
    const ports = adapters.createAwsPorts({ FC_WEBHOOK_DELIVERY_STATE_MACHINE_ARN: 'arn:x', FC_ITEM_REFRESH_QUEUE_URL: 'https://q' }, 'eu-west-1');
    await expect(ports.deliveries.start({ delivery_id: 'd1' } as never)).rejects.toMatchObject({ name: 'SdkNotBundledError' });
    await expect(ports.refreshQueue.enqueue({ item_id: 'i1' } as never)).rejects.toThrow(/SQS client is not bundled/);
    await expect(adapters.createSecretsManagerConnectorConfig('arn:aws:secretsmanager:eu-west-1:1:secret:x', 'eu-west-1', {}).load()).rejects.toThrow(/SECRETSMANAGER client is not bundled/);
    const keys = adapters.createKmsKeyProvider({ keyId: 'alias/x', region: 'eu-west-1' });
    await expect(keys.generateDataKey({ purpose: 'webhook_secret' })).rejects.toThrow(/KMS client is not bundled/);
    const model = adapters.createBedrockModel({ modelId: 'amazon.nova-micro-v1:0', region: 'eu-west-1' });
    await expect(model.refine({ instructions: 'x', input: {}, maxOutputTokens: 10 }, new AbortController().signal)).rejects.toThrow(/BEDROCK client is not bundled/);
    const call = { auth: {} as never, requestId: 'r', baseUrl: 'https://x', event: { headers: {} } as never };
    await expect(adapters.invokeRouteFunction('items.get', call, {}, 'eu-west-1', { FC_ROUTE_FUNCTIONS: 'items.get=fn' })).rejects.toThrow(/LAMBDA client is not bundled/);
  }, 60_000);

  it('each route bundles the clients of its capabilities: SQS with a queue, Step Functions with deliveries, KMS with the secrets key', () => {
    for (const route of ROUTES) {
      const access = routeAccessFor(route);
      const sdks = bundledSdksFor(access);
      expect(sdks.includes('sqs')).toBe(access.eventsQueue || access.refreshQueue);
      expect(sdks.includes('sfn')).toBe((ROUTE_CAPABILITIES.deliveryWorkflow as readonly string[]).includes(route.id));
      expect(sdks.includes('kms')).toBe((ROUTE_CAPABILITIES.secretsKey as readonly string[]).includes(route.id));
      expect(sdks.includes('bedrock')).toBe((ROUTE_CAPABILITIES.model as readonly string[]).includes(route.id));
      expect(sdks.includes('lambda')).toBe(access.invokesRoutes.length > 0);
    }
  });
});
