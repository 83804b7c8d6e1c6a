// AWS KMS over its AWS JSON 1.1 protocol (`X-Amz-Target: TrentService.<Operation>`): GenerateDataKey
// and Decrypt. Blobs (plaintext keys, ciphertext blobs) travel base64 in the JSON; this client takes
// and returns them as bytes.
import { createAwsJsonClient, SERVICES } from './aws-json';
import type { AwsEndpointOptions, AwsMiddleware, AwsOutput } from './aws-request';

export type EncryptionContext = Record<string, string>;

export interface GenerateDataKeyInput {
  /** Key id, key ARN, alias name or alias ARN. */
  KeyId: string;
  KeySpec: 'AES_256' | 'AES_128';
  EncryptionContext?: EncryptionContext;
}

export interface GenerateDataKeyOutput {
  /** The key's ARN. */
  KeyId?: string;
  Plaintext?: Buffer;
  CiphertextBlob?: Buffer;
}

export interface DecryptInput {
  CiphertextBlob: Uint8Array;
  /** Must equal the context the data key was made under, or KMS answers InvalidCiphertextException. */
  EncryptionContext?: EncryptionContext;
  KeyId?: string;
}

export interface DecryptOutput {
  KeyId?: string;
  Plaintext?: Buffer;
  EncryptionAlgorithm?: string;
}

export interface KmsClient {
  use(middleware: AwsMiddleware): void;
  generateDataKey(input: GenerateDataKeyInput): Promise<AwsOutput<GenerateDataKeyOutput>>;
  decrypt(input: DecryptInput): Promise<AwsOutput<DecryptOutput>>;
}

/** A blob member of a JSON-protocol answer: base64 text, or absent. */
function blob(value: unknown): Buffer | undefined {
  return typeof value === 'string' ? Buffer.from(value, 'base64') : undefined;
}

export function createKmsClient(options: AwsEndpointOptions): KmsClient {
  const client = createAwsJsonClient(SERVICES.kms, options);
  return {
    use: (middleware) => client.use(middleware),
    async generateDataKey(input) {
      const out = await client.call<{ KeyId?: string; Plaintext?: string; CiphertextBlob?: string }>('GenerateDataKey', input);
      return { $metadata: out.$metadata, KeyId: out.KeyId, Plaintext: blob(out.Plaintext), CiphertextBlob: blob(out.CiphertextBlob) };
    },
    async decrypt(input) {
      const out = await client.call<{ KeyId?: string; Plaintext?: string; EncryptionAlgorithm?: string }>('Decrypt', {
        ...input,
        CiphertextBlob: Buffer.from(input.CiphertextBlob.buffer, input.CiphertextBlob.byteOffset, input.CiphertextBlob.byteLength).toString('base64'),
      });
      return { $metadata: out.$metadata, KeyId: out.KeyId, Plaintext: blob(out.Plaintext), EncryptionAlgorithm: out.EncryptionAlgorithm };
    },
  };
}
