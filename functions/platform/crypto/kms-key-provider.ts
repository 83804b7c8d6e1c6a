// AWS KeyProvider: data keys from KMS GenerateDataKey (AES_256) under a customer-managed key, with
// the record's context as the KMS EncryptionContext (so it is also in CloudTrail and can be used in
// key-policy conditions); unwrapped with Decrypt and the same context.
//
// The KMS client's module (../aws/kms.ts) is required, and the client built, on the first wrap or
// unwrap; functions that may not use the secrets key are built without it (../bundled-sdks.ts).
import type * as KmsModule from '../aws/kms';
import { endpointFromEnvironment } from '../aws/aws-request';
import type { AwsCredentials } from '../aws/sigv4';
import { notBundled } from '../bundled-sdks';
import { tracer } from '../observability';
import { EnvelopeError, type KeyProvider } from './envelope';

export interface KmsKeyProviderOptions {
  /** Key id, key ARN, alias name or alias ARN of the symmetric KMS key. */
  keyId: string;
  /** Defaults to the function's region (AWS_REGION). */
  region?: string;
  /** Defaults to AWS_ENDPOINT_URL_KMS, else KMS's regional endpoint; tests pass a loopback fake's. */
  endpoint?: string;
  /** Defaults to the function's (its role's, from the environment). */
  credentials?: AwsCredentials;
}

/** KMS errors that mean "this ciphertext does not decrypt under this key and context". */
const NOT_DECRYPTABLE = new Set(['InvalidCiphertextException', 'IncorrectKeyException']);

let kmsModule: typeof KmsModule | undefined;
function kms(): typeof KmsModule {
  // A literal require behind the build-time switch of bundled-sdks.ts: evaluated at first use, and
  // absent from functions built without KMS.
  return (kmsModule ??=
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
    process.env.FC_BUNDLE_KMS === 'omit' ? notBundled('kms') : (require('../aws/kms') as typeof KmsModule));
}

export function createKmsKeyProvider(options: KmsKeyProviderOptions): KeyProvider {
  const { keyId } = options;
  let client: KmsModule.KmsClient | undefined;
  const clientOf = (): KmsModule.KmsClient => {
    if (client) return client;
    const region = options.region ?? process.env.AWS_REGION;
    if (!region) throw new Error('no region for KMS: AWS_REGION is not set');
    const endpoint = options.endpoint ?? endpointFromEnvironment('KMS');
    return (client = tracer.traceAwsCalls(
      kms().createKmsClient({ region, ...(endpoint ? { endpoint } : {}), ...(options.credentials ? { credentials: options.credentials } : {}) }),
    ));
  };
  return {
    keyId,
    async generateDataKey(context) {
      const out = await clientOf().generateDataKey({ KeyId: keyId, KeySpec: 'AES_256', EncryptionContext: context });
      if (out.Plaintext?.length !== 32 || !out.CiphertextBlob?.length) throw new Error('KMS GenerateDataKey returned no usable data key');
      return { plaintext: out.Plaintext, wrapped: out.CiphertextBlob.toString('base64url') };
    },
    async decryptDataKey(wrapped, context) {
      if (!/^[A-Za-z0-9_-]+$/.test(wrapped)) throw new EnvelopeError('malformed', 'wrapped data key is not base64url');
      let out: KmsModule.DecryptOutput;
      try {
        out = await clientOf().decrypt({ KeyId: keyId, CiphertextBlob: Buffer.from(wrapped, 'base64url'), EncryptionContext: context });
      } catch (err) {
        if (NOT_DECRYPTABLE.has((err as Error).name)) {
          throw new EnvelopeError('decrypt_failed', 'data key does not unwrap under this key and context');
        }
        throw err;
      }
      if (out.Plaintext === undefined) throw new Error('KMS Decrypt returned no plaintext');
      return out.Plaintext;
    },
  };
}
