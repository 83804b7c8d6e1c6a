// Who may sign in to the console on AWS: an Amazon Cognito user pool with its hosted UI, and one
// public app client (no secret: the console's functions redeem codes with PKCE, so no client secret
// exists to store or rotate). The functions find it through FC_CONSOLE_COGNITO_* (`environment`),
// read by functions/platform/console-identity-cognito.ts.
//
//   - self sign-up, the e-mail address is the user name and is verified before it can be used
//     (the console finds people by verified address: invitations name an address);
//   - MFA optional, TOTP only (no SMS: no phone numbers to collect, no SMS spend);
//   - passwords of 12+ characters with all four character classes;
//   - Essentials feature plan, no threat protection (that needs the Plus plan, billed per active
//     user from the first one: not worth it for a console's few users; the console's own sign-in
//     throttling and the hosted UI's lockout cover brute force);
//   - production keeps the pool (deletion protection, RETAIN): losing it would lock everyone out.
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { ENV_VARS } from './api-grants';
import type { StageConfig } from './stage-config';

/** The variables the console's functions read (functions/platform/console-identity-cognito.ts). */
export const CONSOLE_IDENTITY_ENV = {
  domain: ENV_VARS.consoleCognitoDomain,
  clientId: ENV_VARS.consoleCognitoClientId,
  userPoolId: ENV_VARS.consoleCognitoUserPoolId,
} as const;

/** Where Cognito sends the browser back, under {base_url}. */
export const CONSOLE_CALLBACK_PATH = '/console/api/auth/callback';
export const CONSOLE_LOGOUT_PATH = '/console/';
export const CONSOLE_PASSWORD_MIN_LENGTH = 12;

/** What the console's functions are told about the pool (each value a token until deployed). */
export interface ConsoleIdentitySettings {
  /** The hosted UI's host, `<prefix>.auth.<region>.amazoncognito.com`. */
  domain: string;
  clientId: string;
  userPoolId: string;
}

/** FC_CONSOLE_COGNITO_* for a function that signs in (lib/api-grants.ts ROUTE_CAPABILITIES.consoleIdentity). */
export function consoleIdentityEnvironment(settings: ConsoleIdentitySettings): Record<string, string> {
  return {
    [CONSOLE_IDENTITY_ENV.domain]: settings.domain,
    [CONSOLE_IDENTITY_ENV.clientId]: settings.clientId,
    [CONSOLE_IDENTITY_ENV.userPoolId]: settings.userPoolId,
  };
}

export interface ConsoleIdentityProps {
  config: StageConfig;
  /**
   * {base_url} without a trailing slash: the custom domain's URL, or the API's own URL built from
   * the RestApi id and the stage name (not `restApi.url`, whose reference to the deployment stage
   * would make the functions, which receive the client id, depend on their own deployment).
   */
  baseUrl: string;
  /**
   * The hosted UI's domain prefix (`<prefix>.auth.<region>.amazoncognito.com`). Prefixes are unique
   * per region across all of AWS, so the default names the stage and the account.
   */
  domainPrefix?: string;
}

export class ConsoleIdentity extends Construct {
  readonly userPool: cognito.UserPool;
  readonly domain: cognito.UserPoolDomain;
  readonly client: cognito.UserPoolClient;
  readonly settings: ConsoleIdentitySettings;
  /** FC_CONSOLE_COGNITO_* for the console's functions. */
  readonly environment: Record<string, string>;

  constructor(scope: Construct, id: string, props: ConsoleIdentityProps) {
    super(scope, id);
    const { config } = props;

    this.userPool = new cognito.UserPool(this, 'UserPool', {
      userPoolName: `fincore-console-${config.stage}`,
      selfSignUpEnabled: true,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      // An address change takes effect only once the new address is verified.
      keepOriginal: { email: true },
      standardAttributes: { email: { required: true, mutable: true }, fullname: { required: false, mutable: true } },
      mfa: cognito.Mfa.OPTIONAL,
      mfaSecondFactor: { sms: false, otp: true },
      passwordPolicy: {
        minLength: CONSOLE_PASSWORD_MIN_LENGTH,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      featurePlan: cognito.FeaturePlan.ESSENTIALS,
      deletionProtection: config.deletionProtection,
      removalPolicy: config.removalPolicy,
    });
    Validations.of(this.userPool).acknowledge(
      {
        id: 'AwsSolutions-COG2',
        reason:
          'MFA is optional by requirement ("MFA optional"): every console user can enrol a TOTP app in the hosted UI; ' +
          'requiring it would stop invited people at sign-up. Sign-in attempts are throttled per address by the console.',
      },
      {
        id: 'AwsSolutions-COG8',
        reason:
          'Threat protection needs the Plus feature plan, billed per monthly active user from the first one; the console ' +
          'has a handful of users, e-mail verification, optional TOTP and its own sign-in throttling.',
      },
    );

    this.domain = this.userPool.addDomain('Domain', {
      cognitoDomain: { domainPrefix: props.domainPrefix ?? `fincore-console-${config.stage}-${Stack.of(this).account}` },
    });

    this.client = this.userPool.addClient('ConsoleClient', {
      userPoolClientName: 'fincore-console',
      generateSecret: false,
      // The hosted UI signs people in (SRP is what it and the SDKs use); no password or admin flows.
      authFlows: { userSrp: true },
      oAuth: {
        flows: { authorizationCodeGrant: true, implicitCodeGrant: false, clientCredentials: false },
        scopes: [cognito.OAuthScope.OPENID, cognito.OAuthScope.EMAIL, cognito.OAuthScope.PROFILE],
        callbackUrls: [`${props.baseUrl}${CONSOLE_CALLBACK_PATH}`],
        logoutUrls: [`${props.baseUrl}${CONSOLE_LOGOUT_PATH}`],
      },
      supportedIdentityProviders: [cognito.UserPoolClientIdentityProvider.COGNITO],
      preventUserExistenceErrors: true,
      // The ID token is read once, at the callback; the console's own session follows. Shortest lives.
      idTokenValidity: Duration.minutes(5),
      accessTokenValidity: Duration.minutes(5),
      refreshTokenValidity: Duration.hours(1),
      authSessionValidity: Duration.minutes(3),
      enableTokenRevocation: true,
    });

    this.settings = {
      domain: `${this.domain.domainName}.auth.${Stack.of(this).region}.amazoncognito.com`,
      clientId: this.client.userPoolClientId,
      userPoolId: this.userPool.userPoolId,
    };
    this.environment = consoleIdentityEnvironment(this.settings);
  }
}
