// Builds the CDK app for one stage: the stack plus the cdk-nag AwsSolutions checks, which run as a
// validation plugin and fail synthesis on any unacknowledged finding. bin/app.ts (the CLI) and the
// CDK tests both build the app through here, so the tests check exactly what gets deployed.
import { type App, type Environment, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { ApiRouteOptions } from './api-construct';
import { FincoreStack } from './fincore-stack';
import { stageConfig, type StageSettings } from './stage-config';
import type { DeployedStage as Stage } from '../functions/contracts/stages';

export function stackId(stage: Stage): string {
  return `Fincore-${stage}`;
}

export function addFincoreStack(
  app: App,
  stage: Stage,
  env: Required<Pick<Environment, 'account' | 'region'>>,
  /** Only the CDK tests pass these (a larger route table); the CLI deploys ROUTES. */
  routeOptions: ApiRouteOptions = {},
  /** Per-deployment settings from CDK context (bin/app.ts); the CDK tests may also set the table's capacity mode. */
  overrides: StageSettings = {},
): FincoreStack {
  const config = stageConfig(stage, overrides);
  const stack = new FincoreStack(app, stackId(stage), {
    ...routeOptions,
    env,
    stackName: `fincore-${stage}`,
    description: `fincore financial-data API, ${stage} stage`,
    config,
    terminationProtection: config.terminationProtection,
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return stack;
}
