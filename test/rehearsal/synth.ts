// One synthesis of the deployed app with bundling ON (the esbuild bundles CDK uploads), read back as
// one flattened template (template-helpers.flattenTemplates), plus what the rehearsal needs to run
// each function: its bundle on disk, its environment and its role.
//
// Synthesis with bundling costs about a minute (CDK bundles one function after another, each through
// its own `npx esbuild`), so the cloud assembly is kept under node_modules/.cache, keyed by a hash of
// every input the bundles and templates come from: a second run with the same sources reuses it.
// FC_REHEARSAL_FRESH=1 forces a new synthesis.
import { App } from 'aws-cdk-lib';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { addFincoreStack, stackId } from '../../lib/fincore-app';
import type { DeployedStage } from '../../functions/contracts/stages';
import { flattenTemplates, type Resources, type TemplateJson } from '../cdk/template-helpers';

export const ENV = { account: '111111111111', region: 'us-east-1' } as const;
const ROOT = join(__dirname, '..', '..');
const CACHE_DIR = join(ROOT, 'node_modules', '.cache', 'fincore-rehearsal');

export interface Synthesis {
  /** The cloud assembly directory (cdk.out). */
  directory: string;
  resources: Resources;
  /** Milliseconds spent synthesizing; 0 when a cached assembly was reused. */
  synthMs: number;
  reused: boolean;
}

/** Every file below these paths feeds the bundles or the templates. */
const INPUTS = ['functions', 'lib', 'package-lock.json', 'tsconfig.json', 'cdk.json', 'test/rehearsal/synth.ts'];

function sourceHash(): string {
  const hash = createHash('sha256');
  const visit = (path: string) => {
    const stats = statSync(path);
    if (stats.isDirectory()) {
      for (const name of readdirSync(path).sort()) visit(join(path, name));
      return;
    }
    hash.update(relative(ROOT, path)).update('\0').update(readFileSync(path)).update('\0');
  };
  for (const input of INPUTS) if (existsSync(join(ROOT, input))) visit(join(ROOT, input));
  return hash.digest('hex').slice(0, 20);
}

function synthesizeInto(stage: DeployedStage, outdir: string): void {
  const app = new App({ outdir, context: { 'aws:cdk:enable-asset-metadata': true } });
  addFincoreStack(app, stage, ENV);
  app.synth();
}

/** Where the assembly keeps a resource's asset (asset metadata is on for this synthesis). */
export function assetPathOf(logicalId: string, resource: Resources[string]): string {
  const path = (resource as Resources[string] & { Metadata?: Record<string, unknown> }).Metadata?.['aws:asset:path'];
  if (typeof path !== 'string') throw new Error(`${logicalId} has no aws:asset:path metadata`);
  return path;
}

export function synthesizeWithBundles(stage: DeployedStage): Synthesis {
  const key = `${stage}-${sourceHash()}`;
  const directory = join(CACHE_DIR, key);
  let synthMs = 0;
  const reused = existsSync(join(directory, 'manifest.json')) && process.env.FC_REHEARSAL_FRESH !== '1';
  if (!reused) {
    mkdirSync(CACHE_DIR, { recursive: true });
    // Older assemblies are stale by construction; another run's assembly in progress is left alone
    // unless it is old enough to be a crashed run's leftover.
    for (const entry of readdirSync(CACHE_DIR)) {
      const path = join(CACHE_DIR, entry);
      const abandoned = entry.includes('.building-') && Date.now() - statSync(path).mtimeMs > 3_600_000;
      if (entry.startsWith(`${stage}-`) && (!entry.includes('.building-') || abandoned)) rmSync(path, { recursive: true, force: true });
    }
    const building = `${directory}.building-${process.pid}`;
    const started = Date.now();
    synthesizeInto(stage, building);
    synthMs = Date.now() - started;
    // A concurrent run may have finished the same assembly first: then its copy is used.
    if (existsSync(directory)) rmSync(building, { recursive: true, force: true });
    else renameSync(building, directory);
  }
  const read = (file: string): TemplateJson => JSON.parse(readFileSync(join(directory, file), 'utf8'));
  const parent = read(`${stackId(stage)}.template.json`);
  const nested = Object.entries(parent.Resources as Resources)
    .filter(([, r]) => r.Type === 'AWS::CloudFormation::Stack')
    .map(([logicalId, r]) => ({ logicalId, template: read(assetPathOf(logicalId, r)) }));
  return { directory, resources: flattenTemplates(parent, nested), synthMs, reused };
}
