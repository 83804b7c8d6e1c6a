// AWS Secrets Manager over its AWS JSON 1.1 protocol (`X-Amz-Target: secretsmanager.<Operation>`):
// GetSecretValue, the one call our functions make.
import { createAwsJsonClient, SERVICES } from './aws-json';
import type { AwsEndpointOptions, AwsMiddleware, AwsOutput } from './aws-request';

export interface GetSecretValueInput {
  /** The secret's ARN or name. */
  SecretId: string;
  VersionId?: string;
  VersionStage?: string;
}

export interface GetSecretValueOutput {
  ARN?: string;
  Name?: string;
  VersionId?: string;
  /** The secret's text, when it was stored as text. */
  SecretString?: string;
  /** The secret's bytes, base64, when it was stored as binary. */
  SecretBinary?: string;
}

export interface SecretsManagerClient {
  use(middleware: AwsMiddleware): void;
  getSecretValue(input: GetSecretValueInput): Promise<AwsOutput<GetSecretValueOutput>>;
}

export function createSecretsManagerClient(options: AwsEndpointOptions): SecretsManagerClient {
  const client = createAwsJsonClient(SERVICES.secretsManager, options);
  return {
    use: (middleware) => client.use(middleware),
    getSecretValue: (input) => client.call<GetSecretValueOutput>('GetSecretValue', input),
  };
}
