// The CDK app. The only place that reads CDK context (the stage) and the process environment
// (target account and region; fixed fallbacks keep `cdk synth` working offline).
//
//   npx cdk synth  -c stage=sandbox
//   npx cdk deploy -c stage=production
import { App } from 'aws-cdk-lib';
import { addFincoreStack } from '../lib/fincore-app';
import { overridesFromContext, parseStage, type StageOverrides } from '../lib/stage-config';
import type { DeployedStage as Stage } from '../functions/contracts/stages';

const app = new App();
let stage: Stage;
let overrides: StageOverrides;
try {
  stage = parseStage(app.node.tryGetContext('stage'));
  // Optional: -c alarmEmail= / alarmTopicArn= / domainName= certificateArn= / apiGatewayAccount=true
  overrides = overridesFromContext((key) => app.node.tryGetContext(key));
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
addFincoreStack(app, stage, {
  account: process.env.CDK_DEFAULT_ACCOUNT ?? '000000000000',
  region: process.env.CDK_DEFAULT_REGION ?? 'us-east-1',
}, {}, overrides);
app.synth();
