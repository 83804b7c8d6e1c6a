// The Cognito sign-ins under way: between the console's auth/start and Cognito's return to
// auth/callback, the PKCE verifier and the redirect URI wait here, under the SHA-256 of the sign-in's
// random `state`; the browser holds only the state (an HttpOnly cookie). A row is taken (deleted and
// read in one call) by the callback that uses it, so a sign-in completes once; its TTL removes one
// that never came back, and a row read past its deadline counts as absent (TTL deletion is lazy).
//
// Why a row and not a signed cookie: nothing to sign with is needed (no key or per-stage secret to
// derive and rotate), the verifier never leaves the server, and a state is single-use by construction.
import { DeleteCommand, PutCommand } from '../platform/aws/dynamodb';
import type { Deps } from '../platform/runtime';
import { keys } from './keys';

export interface SignInState {
  /** SHA-256 (hex) of the sign-in's `state`: the row's identity. */
  stateHash: string;
  verifier: string;
  redirectUri: string;
  /** Unix ms: after this the sign-in cannot complete. */
  expiresAt: number;
}

export async function putSignInState(deps: Deps, state: SignInState): Promise<void> {
  await deps.ddb.send(
    new PutCommand({
      TableName: deps.config.tableName,
      Item: {
        ...keys.signInState(state.stateHash),
        verifier: state.verifier,
        redirect_uri: state.redirectUri,
        deadline: state.expiresAt,
        expires_at: Math.ceil(state.expiresAt / 1000),
      },
      // 32 random bytes never repeat; the condition makes a collision an error, not a reuse.
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/** Deletes the sign-in's row and returns what it held; undefined when there is none (spent, unknown) or it is past its deadline. */
export async function takeSignInState(deps: Deps, stateHash: string): Promise<SignInState | undefined> {
  const res = await deps.ddb.send(new DeleteCommand({ TableName: deps.config.tableName, Key: keys.signInState(stateHash), ReturnValues: 'ALL_OLD' }));
  const row = res.Attributes;
  if (!row || typeof row.verifier !== 'string' || typeof row.redirect_uri !== 'string') return undefined;
  const expiresAt = Number(row.deadline);
  if (!(expiresAt > deps.clock.now())) return undefined;
  return { stateHash, verifier: row.verifier, redirectUri: row.redirect_uri, expiresAt };
}
