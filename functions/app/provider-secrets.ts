// Provider secrets at rest: the OAuth tokens or API keys a connector needs per item, sealed with
// envelope encryption (KMS on AWS, the local key provider locally) under an encryption context
// bound to the item, its application and environment. A sealed value copied to another item does
// not open, and the KMS grant of every function that opens them requires this purpose.
import type { ProviderSecrets } from '../core/connector-port';
import type { Environment } from '../contracts/schemas';
import { decryptSecret, encryptSecret, type SealedSecret } from '../platform/crypto/envelope';
import type { Deps } from '../platform/runtime';

/** The `purpose` of every provider-secret data key (the KMS grants require it: lib/api-grants.ts). */
export const PROVIDER_SECRET_PURPOSE = 'provider_secrets';

export interface SecretOwner {
  itemId: string;
  applicationId: string;
  environment: Environment;
}

const contextOf = (owner: SecretOwner) => ({
  application_id: owner.applicationId,
  environment: owner.environment,
  item_id: owner.itemId,
  purpose: PROVIDER_SECRET_PURPOSE,
});

export async function sealProviderSecrets(deps: Deps, owner: SecretOwner, secrets: ProviderSecrets): Promise<SealedSecret> {
  return encryptSecret(deps.keyProvider, JSON.stringify(secrets), contextOf(owner));
}

/** The item's secrets opened, or undefined for an item without any. */
export async function openProviderSecrets(deps: Deps, item: SecretOwner & { providerSecrets: SealedSecret | null }): Promise<ProviderSecrets | undefined> {
  if (!item.providerSecrets) return undefined;
  const opened = JSON.parse(await decryptSecret(deps.keyProvider, item.providerSecrets, contextOf(item))) as unknown;
  if (typeof opened !== 'object' || opened === null || Array.isArray(opened)) throw new Error(`the provider secrets of ${item.itemId} are not an object`);
  return opened as ProviderSecrets;
}
