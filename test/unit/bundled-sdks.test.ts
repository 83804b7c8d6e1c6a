// A function's bundle carries exactly the optional AWS SDKs its grants allow: the build-time switches
// drop the others (checked on a real esbuild build with the stack's define entries), and a call that
// would need a dropped SDK fails with a clear error instead of a missing-module crash.
import { build, type Metafile } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROUTES } from '../../functions/contracts/routes';
import type * as AwsPorts from '../../functions/platform/aws-ports';
import type * as KmsKeyProvider from '../../functions/platform/crypto/kms-key-provider';
import type * as BedrockModel from '../../functions/platform/model-bedrock';
import { routeAccessFor, ROUTE_CAPABILITIES } from '../../lib/api-grants';
import { ALL_OPTIONAL_SDKS, bundledSdksFor, sdkDefines } from '../../lib/bundled-sdks';

const ROOT = join(__dirname, '..', '..');
const SDK_PACKAGES = { sqs: '@aws-sdk/client-sqs', sfn: '@aws-sdk/client-sfn', kms: '@aws-sdk/client-kms', bedrock: '@aws-sdk/client-bedrock-runtime', secretsManager: '@aws-sdk/client-secrets-manager' } as const;

let outDir: string;
beforeAll(() => {
  outDir = mkdtempSync(join(tmpdir(), 'fc-bundled-sdks-'));
});
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** Bundles the adapters that load optional SDKs, as lib/fincore-function.ts would for `bundled`. */
async function bundleAdapters(name: string, bundled: readonly (keyof typeof SDK_PACKAGES)[]): Promise<{ file: string; packages: Set<string> }> {
  const file = join(outDir, `${name}.js`);
  const result = await build({
    stdin: {
      contents:
        "export { createAwsPorts } from './functions/platform/aws-ports';\nexport { createKmsKeyProvider } from './functions/platform/crypto/kms-key-provider';\n" +
        "export { createBedrockModel } from './functions/platform/model-bedrock';",
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
  const packages = new Set(
    Object.keys((result.metafile as Metafile).inputs)
      .map((input) => /node_modules\/(@[^/]+\/[^/]+|[^/@][^/]*)/.exec(input)?.[1])
      .filter((p): p is string => p !== undefined),
  );
  return { file, packages };
}

describe('optional SDKs in a bundle', () => {
  it('a bundle built without an SDK does not carry it, and one built with it does', async () => {
    const none = await bundleAdapters('none', []);
    const all = await bundleAdapters('all', ALL_OPTIONAL_SDKS);
    for (const pkg of Object.values(SDK_PACKAGES)) {
      expect(none.packages.has(pkg)).toBe(false);
      expect(all.packages.has(pkg)).toBe(true);
    }
    const sqsOnly = await bundleAdapters('sqs-only', ['sqs']);
    expect([...Object.values(SDK_PACKAGES)].filter((pkg) => sqsOnly.packages.has(pkg))).toEqual(['@aws-sdk/client-sqs']);
  }, 60_000);

  it('a call that needs an SDK the bundle lacks fails with SdkNotBundledError, before any network', async () => {
    const { file } = await bundleAdapters('none-run', []);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the freshly built bundle
    const adapters = require(file) as typeof AwsPorts & typeof KmsKeyProvider & typeof BedrockModel;
    const ports = adapters.createAwsPorts({ FC_WEBHOOK_DELIVERY_STATE_MACHINE_ARN: 'arn:x', FC_ITEM_REFRESH_QUEUE_URL: 'https://q' }, 'eu-west-1');
    await expect(ports.deliveries.start({ delivery_id: 'd1' } as never)).rejects.toMatchObject({ name: 'SdkNotBundledError' });
    await expect(ports.refreshQueue.enqueue({ item_id: 'i1' } as never)).rejects.toThrow(/SQS SDK is not bundled/);
    const keys = adapters.createKmsKeyProvider({ keyId: 'alias/x', region: 'eu-west-1' });
    await expect(keys.generateDataKey({ purpose: 'webhook_secret' })).rejects.toThrow(/KMS SDK is not bundled/);
    const model = adapters.createBedrockModel({ modelId: 'amazon.nova-micro-v1:0', region: 'eu-west-1' });
    await expect(model.refine({ instructions: 'x', input: {}, maxOutputTokens: 10 }, new AbortController().signal)).rejects.toThrow(/BEDROCK SDK is not bundled/);
  }, 60_000);

  it('each route bundles the SDKs of its capabilities: SQS with a queue, Step Functions with deliveries, KMS with the secrets key', () => {
    for (const route of ROUTES) {
      const access = routeAccessFor(route);
      const sdks = bundledSdksFor(access);
      expect(sdks.includes('sqs')).toBe(access.eventsQueue || access.refreshQueue);
      expect(sdks.includes('sfn')).toBe((ROUTE_CAPABILITIES.deliveryWorkflow as readonly string[]).includes(route.id));
      expect(sdks.includes('kms')).toBe((ROUTE_CAPABILITIES.secretsKey as readonly string[]).includes(route.id));
      expect(sdks.includes('bedrock')).toBe((ROUTE_CAPABILITIES.model as readonly string[]).includes(route.id));
    }
  });
});
