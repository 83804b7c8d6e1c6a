// Who is acting in the console, as every console use case receives it: the signed-in user and
// their session, plus where the request came from (for the audit log). Built by the edge from the
// session cookie; the organisation role is looked up per action by `authorize` (./authorize.ts).
export interface ConsoleUser {
  userId: string;
  email: string;
  name: string;
}

export interface ConsoleActor {
  user: ConsoleUser;
  /** SHA-256 of the session token: identifies the session without being it. */
  sessionHash: string;
  clientAddress: string;
  userAgent: string;
  requestId: string;
}

/** What the edge knows of a signed-in console request (functions/platform/middleware.ts SignedInCaller). */
export interface SignedInRequest {
  session: { tokenHash: string; user: ConsoleUser };
  clientAddress: string;
  userAgent: string;
}

/** The actor of a signed-in console request, as every console use case takes it. */
export function consoleActor(caller: SignedInRequest, requestId: string): ConsoleActor {
  const { userId, email, name } = caller.session.user;
  return {
    user: { userId, email, name },
    sessionHash: caller.session.tokenHash,
    clientAddress: caller.clientAddress,
    userAgent: caller.userAgent.slice(0, 200),
    requestId,
  };
}
