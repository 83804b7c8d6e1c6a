// Link, public and access tokens: random, prefixed, and stored only as SHA-256 (like API keys).
import { randomToken, sha256Hex } from './api-keys';

export const TOKEN_PREFIX = { link: 'fc_link_', public: 'fc_pub_', access: 'fc_at_' } as const;
export type TokenKind = keyof typeof TOKEN_PREFIX;

export function mintToken(kind: TokenKind): string {
  return `${TOKEN_PREFIX[kind]}${randomToken(kind === 'access' ? 40 : 32)}`;
}

export const tokenHash = sha256Hex;

export function newItemId(): string {
  return `item_${randomToken(24)}`;
}
