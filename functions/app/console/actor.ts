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
