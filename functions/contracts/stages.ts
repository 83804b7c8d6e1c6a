// Where the service runs: the deployed stages CDK creates (bin/app.ts `-c stage=`), plus the local
// runtime. Declared once for the stack's configuration and the functions' own.
export const DEPLOYED_STAGES = ['sandbox', 'production'] as const;
export type DeployedStage = (typeof DEPLOYED_STAGES)[number];

export const RUNTIME_STAGES = ['local', ...DEPLOYED_STAGES] as const;
export type RuntimeStage = (typeof RUNTIME_STAGES)[number];
