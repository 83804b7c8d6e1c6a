// The sandbox's simulated OAuth bank, as Link's pages and the bank page itself name it: no simulator
// code, so the bank page's routes (functions/app/link-sandbox-bank.ts) bundle none.

/** Where the simulated bank's consent page is served: next to Link's own OAuth callback. */
export const SANDBOX_OAUTH_AUTHORIZE_PATH = '/link/sandbox/oauth/authorize';
/** The code the simulated bank sends back to Link's callback when the user allows access. */
export const SANDBOX_OAUTH_CODE = 'sandbox_authorized';
