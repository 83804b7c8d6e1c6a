// The console's Cognito user pool, hosted UI domain and public app client (lib/console-identity.ts),
// synthesized on its own for both stages: sign-up, sign-in, MFA, password and token settings as
// designed, production retains the pool, the functions' FC_CONSOLE_COGNITO_* name these resources,
// and cdk-nag's AwsSolutions pack has no unacknowledged finding (each acknowledgement silences a
// real one, with a reason).
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { CONSOLE_IDENTITY_ENV, ConsoleIdentity } from '../../lib/console-identity';
import { stageConfig } from '../../lib/stage-config';
import { DEPLOYED_STAGES, type DeployedStage } from '../../functions/contracts/stages';

const ENV = { account: '111111111111', region: 'eu-west-1' };
const BASE_URL = 'https://api.example.com';

function synth(stage: DeployedStage, domainPrefix?: string) {
  const app = new App();
  const stack = new Stack(app, `Console-${stage}`, { env: ENV });
  const identity = new ConsoleIdentity(stack, 'ConsoleIdentity', { config: stageConfig(stage), baseUrl: BASE_URL, domainPrefix });
  return { app, stack, identity, template: Template.fromStack(stack) };
}

describe.each(DEPLOYED_STAGES)('the console identity on %s', (stage) => {
  const { app, stack, identity, template } = synth(stage);

  it('is a self sign-up pool signing in by verified e-mail, with optional TOTP MFA and 12+ character passwords', () => {
    template.resourceCountIs('AWS::Cognito::UserPool', 1);
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: false },
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: ['email'],
      UsernameConfiguration: { CaseSensitive: false },
      UserAttributeUpdateSettings: { AttributesRequireVerificationBeforeUpdate: ['email'] },
      MfaConfiguration: 'OPTIONAL',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      Policies: {
        PasswordPolicy: { MinimumLength: 12, RequireLowercase: true, RequireUppercase: true, RequireNumbers: true, RequireSymbols: true },
      },
      AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'verified_email', Priority: 1 }] },
      UserPoolTier: 'ESSENTIALS',
      // Threat protection (advanced security) is off: it needs the Plus plan.
      UserPoolAddOns: Match.absent(),
    });
  });

  it('has a hosted UI domain named after the stage and the account', () => {
    template.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: `fincore-console-${stage}-111111111111` });
  });

  it('has one public app client: authorization code only, openid email profile, callbacks under {base_url}, short-lived tokens', () => {
    template.resourceCountIs('AWS::Cognito::UserPoolClient', 1);
    const [client] = Object.values(template.findResources('AWS::Cognito::UserPoolClient')).map((r) => r.Properties as Record<string, unknown>);
    expect(client.GenerateSecret).toBe(false);
    expect(client).toMatchObject({
      AllowedOAuthFlows: ['code'],
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthScopes: ['openid', 'email', 'profile'],
      CallbackURLs: [`${BASE_URL}/console/api/auth/callback`],
      LogoutURLs: [`${BASE_URL}/console/`],
      SupportedIdentityProviders: ['COGNITO'],
      PreventUserExistenceErrors: 'ENABLED',
      ExplicitAuthFlows: ['ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      IdTokenValidity: 5,
      AccessTokenValidity: 5,
      EnableTokenRevocation: true,
    });
  });

  it('gives the functions the domain host, client id and pool id of these resources', () => {
    const resolved = stack.resolve(identity.environment) as Record<string, unknown>;
    expect(Object.keys(resolved).sort()).toEqual(Object.values(CONSOLE_IDENTITY_ENV).sort());
    const [poolId] = Object.keys(template.findResources('AWS::Cognito::UserPool'));
    const [clientId] = Object.keys(template.findResources('AWS::Cognito::UserPoolClient'));
    const [domainId] = Object.keys(template.findResources('AWS::Cognito::UserPoolDomain'));
    expect(resolved[CONSOLE_IDENTITY_ENV.userPoolId]).toEqual({ Ref: poolId });
    expect(resolved[CONSOLE_IDENTITY_ENV.clientId]).toEqual({ Ref: clientId });
    expect(resolved[CONSOLE_IDENTITY_ENV.domain]).toEqual({ 'Fn::Join': ['', [{ Ref: domainId }, '.auth.eu-west-1.amazoncognito.com']] });
  });

  it('keeps the pool in production (deletion protection, retained) and lets a sandbox go', () => {
    const [pool] = Object.values(template.findResources('AWS::Cognito::UserPool'));
    if (stage === 'production') {
      expect(pool.DeletionPolicy).toBe('Retain');
      expect(pool.Properties.DeletionProtection).toBe('ACTIVE');
    } else {
      expect(pool.DeletionPolicy).toBe('Delete');
      expect(pool.Properties.DeletionProtection).toBe('INACTIVE');
    }
  });

  it('has no unacknowledged cdk-nag finding, and every acknowledgement silences a real one with a reason', () => {
    expect(new AwsSolutionsChecks().validateScope(app).violations.map((v) => v.ruleName)).toEqual([]);
    const pack = new AwsSolutionsChecks();
    (pack as unknown as { isAcknowledged: () => boolean }).isAcknowledged = () => false;
    const findings = pack.validateScope(app).violations.map((v) => v.ruleName);
    const acknowledged = identity.node
      .findAll()
      .flatMap((node) => node.node.metadata.filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY))
      .flatMap((m) => Object.entries(m.data as Record<string, string>))
      .map(([key, reason]) => [key.replace(/^annotation::/i, ''), reason]);
    expect(acknowledged.map(([rule]) => rule).sort()).toEqual(['AwsSolutions-COG2', 'AwsSolutions-COG8']);
    for (const [rule, reason] of acknowledged) {
      expect(findings).toContain(rule);
      expect(reason.length).toBeGreaterThanOrEqual(30);
    }
  });
});

it('takes a domain prefix given by the deployment', () => {
  synth('sandbox', 'acme-console').template.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: 'acme-console' });
});
