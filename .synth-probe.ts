import { App } from 'aws-cdk-lib';
import { writeFileSync } from 'node:fs';
import { addFincoreStack } from './lib/fincore-app';
const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const stack = addFincoreStack(app, (process.argv[2] as any) ?? 'sandbox', { account: '111111111111', region: 'us-east-1' });
const tpl = app.synth().getStackByName(stack.stackName).template;
writeFileSync('/tmp/tpl.json', JSON.stringify(tpl, null, 1));
