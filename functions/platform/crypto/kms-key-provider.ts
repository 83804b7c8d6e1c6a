// AWS KeyProvider: data keys from KMS GenerateDataKey (AES_256) under a customer-managed key, with
// the record's context as the KMS EncryptionContext (so it is also in CloudTrail and can be used in
// key-policy conditions); unwrapped with Decrypt and the same context.
//
// The SDK is required, and the client built, on the first wrap or unwrap; functions that may not
// use the secrets key are built without it (../bundled-sdks.ts).
import type * as KmsSdk from '@aws-sdk/client-kms';
import type { DecryptCommand, DecryptCommandOutput, GenerateDataKeyCommand, GenerateDataKeyCommandOutput } from '@aws-sdk/client-kms';
import { notBundled } from '../bundled-sdks';
import { tracer } from '../observability';
import { EnvelopeError, type KeyProvider } from './envelope';

/** The part of KMSClient this adapter uses; tests inject a fake. */
export interface KmsSender {
  send(command: GenerateDataKeyCommand | DecryptCommand): Promise<Partial<GenerateDataKeyCommandOutput & DecryptCommandOutput>>;
}

export interface KmsKeyProviderOptions {
  /** Key id, key ARN, alias name or alias ARN of the symmetric KMS key. */
  keyId: string;
  /** Defaults to a KMSClient for the ambient region and credentials. */
  client?: KmsSender;
  region?: string;
}

/** KMS errors that mean "this ciphertext does not decrypt under this key and context". */
const NOT_DECRYPTABLE = new Set(['InvalidCiphertextException', 'IncorrectKeyException']);

let kmsSdkModule: typeof KmsSdk | undefined;
function kmsSdk(): typeof KmsSdk {
  // A literal require behind the build-time switch of bundled-sdks.ts: evaluated at first use, and
  // absent from functions built without KMS.
  return (kmsSdkModule ??=
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
    process.env.FC_BUNDLE_KMS === 'omit' ? notBundled('kms') : (require('@aws-sdk/client-kms') as typeof KmsSdk));
}

export function createKmsKeyProvider(options: KmsKeyProviderOptions): KeyProvider {
  const { keyId } = options;
  let defaultClient: KmsSender | undefined;
  const client = (): KmsSender =>
    options.client ??
    (defaultClient ??= tracer.captureAWSv3Client(new (kmsSdk().KMSClient)(options.region === undefined ? {} : { region: options.region })));
  return {
    keyId,
    async generateDataKey(context) {
      const out = await client().send(new (kmsSdk().GenerateDataKeyCommand)({ KeyId: keyId, KeySpec: 'AES_256', EncryptionContext: context }));
      if (out.Plaintext?.length !== 32 || !out.CiphertextBlob?.length) throw new Error('KMS GenerateDataKey returned no usable data key');
      // Same memory as the SDK's array, so zeroing it after use clears the SDK's copy too.
      const plaintext = Buffer.from(out.Plaintext.buffer, out.Plaintext.byteOffset, out.Plaintext.byteLength);
      return { plaintext, wrapped: Buffer.from(out.CiphertextBlob).toString('base64url') };
    },
    async decryptDataKey(wrapped, context) {
      if (!/^[A-Za-z0-9_-]+$/.test(wrapped)) throw new EnvelopeError('malformed', 'wrapped data key is not base64url');
      let out: Partial<DecryptCommandOutput>;
      try {
        out = await client().send(
          new (kmsSdk().DecryptCommand)({ KeyId: keyId, CiphertextBlob: Buffer.from(wrapped, 'base64url'), EncryptionContext: context }),
        );
      } catch (err) {
        if (NOT_DECRYPTABLE.has((err as Error).name)) {
          throw new EnvelopeError('decrypt_failed', 'data key does not unwrap under this key and context');
        }
        throw err;
      }
      if (out.Plaintext === undefined) throw new Error('KMS Decrypt returned no plaintext');
      return Buffer.from(out.Plaintext.buffer, out.Plaintext.byteOffset, out.Plaintext.byteLength);
    },
  };
}
