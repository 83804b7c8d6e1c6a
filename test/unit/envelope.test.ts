import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import {
  canonicalContext,
  decryptSecret,
  encryptSecret,
  EnvelopeError,
  isSealedSecret,
  type KeyProvider,
  type SealedSecret,
} from '../../functions/platform/crypto/envelope';
import { createLocalKeyProvider } from '../../functions/platform/crypto/local-key-provider';
import { createKmsKeyProvider } from '../../functions/platform/crypto/kms-key-provider';
import { createKmsClient } from '../../functions/platform/aws/kms';
import { AwsJsonError, AwsJsonFake, FAKE_CREDENTIALS } from '../support/aws-json-fake';

const context = { application_id: 'app_1', environment: 'test', purpose: 'webhook_secret' };

async function rejectsWith(promise: Promise<unknown>, code: string) {
  await expect(promise).rejects.toBeInstanceOf(EnvelopeError);
  await expect(promise).rejects.toMatchObject({ code });
}

describe('envelope encryption', () => {
  const provider = createLocalKeyProvider();

  it('round-trips a secret through a JSON-serialisable sealed value', async () => {
    const sealed = await encryptSecret(provider, 'whsec_ünïcode_✓', context);
    expect(sealed).toMatchObject({ v: 1, kid: provider.keyId });
    for (const f of ['wk', 'iv', 'ct', 'tag'] as const) expect(sealed[f]).toMatch(/^[A-Za-z0-9_.-]+$/);
    expect(JSON.stringify(sealed)).not.toContain('whsec');
    const restored = JSON.parse(JSON.stringify(sealed));
    expect(isSealedSecret(restored)).toBe(true);
    expect(await decryptSecret(provider, restored, context)).toBe('whsec_ünïcode_✓');
  });

  it('uses a fresh data key and iv for every record', async () => {
    const a = await encryptSecret(provider, 'same', context);
    const b = await encryptSecret(provider, 'same', context);
    expect(a.wk).not.toBe(b.wk);
    expect(a.iv).not.toBe(b.iv);
    expect(a.ct).not.toBe(b.ct);
  });

  it('binds the context regardless of key order', async () => {
    const sealed = await encryptSecret(provider, 'x', context);
    const reordered = { purpose: 'webhook_secret', environment: 'test', application_id: 'app_1' };
    expect(await decryptSecret(provider, sealed, reordered)).toBe('x');
    expect(canonicalContext(reordered)).toBe('{"application_id":"app_1","environment":"test","purpose":"webhook_secret"}');
    expect(canonicalContext({ '10': 'a', '2': 'b' })).toBe('{"10":"a","2":"b"}');
  });

  it('fails to decrypt under another application, environment or an extra context key', async () => {
    const sealed = await encryptSecret(provider, 'x', context);
    await rejectsWith(decryptSecret(provider, sealed, { ...context, application_id: 'app_2' }), 'decrypt_failed');
    await rejectsWith(decryptSecret(provider, sealed, { ...context, environment: 'live' }), 'decrypt_failed');
    await rejectsWith(decryptSecret(provider, sealed, { ...context, extra: '' }), 'decrypt_failed');
  });

  it('fails to decrypt when the data-layer AAD differs even if the data key unwraps', async () => {
    // A provider that ignores context isolates the AES-GCM AAD check in decryptSecret itself.
    const key = randomBytes(32);
    const loose: KeyProvider = {
      keyId: 'loose',
      generateDataKey: async () => ({ plaintext: Buffer.from(key), wrapped: 'k' }),
      decryptDataKey: async () => Buffer.from(key),
    };
    const sealed = await encryptSecret(loose, 'x', context);
    expect(await decryptSecret(loose, sealed, context)).toBe('x');
    await rejectsWith(decryptSecret(loose, sealed, { ...context, environment: 'live' }), 'decrypt_failed');
  });

  it('fails on tampered ciphertext, tag, iv or wrapped key', async () => {
    const sealed = await encryptSecret(provider, 'a longer secret value', context);
    const flip = (s: string) => {
      const b = Buffer.from(s, 'base64url');
      b[0] ^= 1;
      return b.toString('base64url');
    };
    for (const field of ['ct', 'tag', 'iv', 'wk'] as const) {
      const tampered: SealedSecret =
        field === 'wk' ? { ...sealed, wk: sealed.wk.split('.').map((p, i) => (i === 1 ? flip(p) : p)).join('.') } : { ...sealed, [field]: flip(sealed[field]) };
      await rejectsWith(decryptSecret(provider, tampered, context), 'decrypt_failed');
    }
  });

  it('rejects values that are not sealed secrets', async () => {
    const sealed = await encryptSecret(provider, 'x', context);
    await rejectsWith(decryptSecret(provider, { ...sealed, v: 2 } as unknown as SealedSecret, context), 'malformed');
    await rejectsWith(decryptSecret(provider, { ...sealed, iv: 'AAAA' }, context), 'malformed');
    await rejectsWith(decryptSecret(provider, { ...sealed, ct: 'not base64!' }, context), 'malformed');
    await rejectsWith(decryptSecret(provider, { ...sealed, wk: 'nodots' }, context), 'malformed');
    expect(isSealedSecret(null)).toBe(false);
    expect(isSealedSecret('x')).toBe(false);
  });

  it('fails under a different key-encryption key', async () => {
    const sealed = await encryptSecret(provider, 'x', context);
    const other = createLocalKeyProvider();
    expect(other.keyId).not.toBe(provider.keyId);
    await rejectsWith(decryptSecret(other, sealed, context), 'decrypt_failed');
  });

  it('zeroes the plaintext data key after encrypting and decrypting', async () => {
    const handed: Buffer[] = [];
    const spy: KeyProvider = {
      keyId: provider.keyId,
      generateDataKey: async (c) => {
        const k = await provider.generateDataKey(c);
        handed.push(k.plaintext);
        return k;
      },
      decryptDataKey: async (w, c) => {
        const k = await provider.decryptDataKey(w, c);
        handed.push(k);
        return k;
      },
    };
    const sealed = await encryptSecret(spy, 'x', context);
    await decryptSecret(spy, sealed, context);
    await expect(decryptSecret(spy, { ...sealed, ct: sealed.ct.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) }, context)).rejects.toThrow();
    expect(handed).toHaveLength(3);
    for (const k of handed) expect(k.every((b) => b === 0)).toBe(true);
  });

  it('refuses non-string context values', async () => {
    await expect(encryptSecret(provider, 'x', { n: 1 as unknown as string })).rejects.toThrow(TypeError);
  });
});

describe('the local key provider', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'fc-kek-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates a 0600 key file when missing and reuses it on the next start', async () => {
    const file = join(dir, 'nested', 'kek');
    const first = createLocalKeyProvider({ file });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toHaveLength(32);
    const sealed = await encryptSecret(first, 'persisted', context);
    const second = createLocalKeyProvider({ file });
    expect(second.keyId).toBe(first.keyId);
    expect(await decryptSecret(second, sealed, context)).toBe('persisted');
  });

  it('accepts a raw 32-byte key file and refuses a file of the wrong size', () => {
    const raw = join(dir, 'raw');
    const key = randomBytes(32);
    writeFileSync(raw, key, { mode: 0o600 });
    expect(createLocalKeyProvider({ file: raw }).keyId).toBe(createLocalKeyProvider({ key }).keyId);
    const bad = join(dir, 'bad');
    writeFileSync(bad, 'too short');
    expect(() => createLocalKeyProvider({ file: bad })).toThrow(/32-byte/);
    expect(() => createLocalKeyProvider({ key: randomBytes(16) })).toThrow(TypeError);
  });

  it('wraps data keys bound to the context', async () => {
    const p = createLocalKeyProvider();
    const { plaintext, wrapped } = await p.generateDataKey(context);
    expect(plaintext).toHaveLength(32);
    expect((await p.decryptDataKey(wrapped, context)).equals(plaintext)).toBe(true);
    await rejectsWith(p.decryptDataKey(wrapped, { ...context, application_id: 'app_2' }), 'decrypt_failed');
  });
});

/**
 * Just enough of KMS on a loopback port, speaking its JSON 1.1 protocol (blobs base64): a real
 * AES-GCM wrap under a fake key, context checked like KMS does.
 */
async function fakeKms(keyId: string) {
  const master = randomBytes(32);
  const aad = (ctx: unknown) => Buffer.from(canonicalContext((ctx ?? {}) as Record<string, string>));
  const invalid = () => new AwsJsonError('InvalidCiphertextException', 'the ciphertext, key or encryption context is not valid');
  const server = await new AwsJsonFake({
    'TrentService.GenerateDataKey': (input) => {
      if (input.KeyId !== keyId || input.KeySpec !== 'AES_256') throw new AwsJsonError('ValidationException', 'unexpected GenerateDataKey input');
      const plaintext = randomBytes(32);
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', master, iv);
      c.setAAD(aad(input.EncryptionContext));
      const blob = Buffer.concat([iv, c.update(plaintext), c.final(), c.getAuthTag()]);
      return { KeyId: `arn:aws:kms:us-east-1:000000000000:key/${keyId}`, Plaintext: plaintext.toString('base64'), CiphertextBlob: blob.toString('base64') };
    },
    'TrentService.Decrypt': (input) => {
      const blob = Buffer.from(String(input.CiphertextBlob ?? ''), 'base64');
      if (input.KeyId !== keyId || blob.length !== 12 + 32 + 16) throw invalid();
      const d = createDecipheriv('aes-256-gcm', master, blob.subarray(0, 12));
      d.setAAD(aad(input.EncryptionContext));
      d.setAuthTag(blob.subarray(44));
      try {
        const out = Buffer.concat([d.update(blob.subarray(12, 44)), d.final()]);
        return { KeyId: keyId, Plaintext: out.toString('base64'), EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' };
      } catch {
        throw invalid();
      }
    },
  }).start();
  const calls = () => server.requests.map((r) => ({ name: r.target.split('.')[1], input: r.input }));
  const provider = (id = keyId) => createKmsKeyProvider({ keyId: id, region: 'us-east-1', endpoint: server.endpoint, credentials: FAKE_CREDENTIALS });
  return { server, calls, provider };
}

/** A KMS that answers every call with `answer` (an error as `{ status, code }`). */
async function answeringKms(answer: { status: number; code: string } | Record<string, unknown>) {
  const reply = () => {
    if ('code' in answer && typeof answer.code === 'string') throw new AwsJsonError(answer.code, 'refused by the fake', Number(answer.status));
    return answer;
  };
  return new AwsJsonFake({ 'TrentService.GenerateDataKey': reply, 'TrentService.Decrypt': reply }).start();
}

describe('the KMS key provider', () => {
  const fakes: AwsJsonFake[] = [];
  const track = <T extends { server: AwsJsonFake } | AwsJsonFake>(fake: T): T => {
    fakes.push(fake instanceof AwsJsonFake ? fake : fake.server);
    return fake;
  };
  afterEach(async () => {
    await Promise.all(fakes.splice(0).map((f) => f.close()));
  });

  it('gets AES_256 data keys from GenerateDataKey and unwraps them with Decrypt, passing the context through', async () => {
    const { server, calls, provider } = track(await fakeKms('key-123'));
    const kms = provider();
    expect(kms.keyId).toBe('key-123');
    const sealed = await encryptSecret(kms, 'provider-token', context);
    expect(sealed.kid).toBe('key-123');
    expect(await decryptSecret(kms, sealed, context)).toBe('provider-token');
    expect(calls()).toEqual([
      { name: 'GenerateDataKey', input: { KeyId: 'key-123', KeySpec: 'AES_256', EncryptionContext: context } },
      { name: 'Decrypt', input: { KeyId: 'key-123', CiphertextBlob: expect.any(String), EncryptionContext: context } },
    ]);
    // The blob travels base64 in the JSON body; the envelope stores it base64url.
    expect(Buffer.from(String(calls()[1].input.CiphertextBlob), 'base64').toString('base64url')).toBe(sealed.wk);
    for (const request of server.requests) {
      expect(request.headers['content-type']).toBe('application/x-amz-json-1.1');
      expect(request.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDLOOPBACK\/\d{8}\/us-east-1\/kms\/aws4_request, /);
    }
  });

  it('reports a context KMS refuses (InvalidCiphertextException) as decrypt_failed', async () => {
    const { server, provider } = track(await fakeKms('key-123'));
    const kms = provider();
    const sealed = await encryptSecret(kms, 'x', context);
    await rejectsWith(decryptSecret(kms, sealed, { ...context, environment: 'live' }), 'decrypt_failed');
    // KMS itself was asked with the wrong context, and refused it.
    expect(server.requests.at(-1)?.input.EncryptionContext).toEqual({ ...context, environment: 'live' });
    await expect(
      createKmsClient({ region: 'us-east-1', endpoint: server.endpoint, credentials: FAKE_CREDENTIALS }).decrypt({
        KeyId: 'key-123',
        CiphertextBlob: Buffer.from(sealed.wk, 'base64url'),
        EncryptionContext: { ...context, environment: 'live' },
      }),
    ).rejects.toMatchObject({ name: 'InvalidCiphertextException', $fault: 'client', $metadata: expect.objectContaining({ httpStatusCode: 400 }) });
  });

  it('passes other KMS failures through as the service\'s error', async () => {
    const denied = track(await answeringKms({ status: 400, code: 'AccessDeniedException' }));
    const kms = createKmsKeyProvider({ keyId: 'k', region: 'us-east-1', endpoint: denied.endpoint, credentials: FAKE_CREDENTIALS });
    await expect(kms.decryptDataKey('AAAA', context)).rejects.toMatchObject({ name: 'AccessDeniedException', message: 'refused by the fake' });
    await expect(kms.generateDataKey(context)).rejects.toMatchObject({ name: 'AccessDeniedException' });
    expect(denied.requests).toHaveLength(2);
  });

  it('refuses a GenerateDataKey answer without a 32-byte key', async () => {
    const short = track(await answeringKms({ Plaintext: Buffer.alloc(16).toString('base64'), CiphertextBlob: Buffer.alloc(8).toString('base64') }));
    const kms = createKmsKeyProvider({ keyId: 'k', region: 'us-east-1', endpoint: short.endpoint, credentials: FAKE_CREDENTIALS });
    await expect(kms.generateDataKey(context)).rejects.toThrow(/no usable data key/);
  });
});
