// @fincore/sdk/link: loads the Link SDK from your deployment ({base_url}/link/sdk.js) and opens Link
// in a modal on your page. The SDK must be loaded from Fincore, never bundled (it finds Link's
// address from its own src), so this module only injects the script tag and wraps the global.
// Safe to import during server-side rendering: nothing touches the DOM until a function is called.

export interface LinkSuccessMetadata {
  link_session_id: string;
  item_id: string;
  institution: { institution_id: string; name: string };
  accounts: Array<{ account_id: string; name: string; mask: string | null; type: string; subtype: string | null }>;
  [key: string]: unknown;
}

export interface LinkExitMetadata {
  link_session_id: string | null;
  /** The screen the user left: CONSENT, SELECT_INSTITUTION, CREDENTIALS, MFA, ERROR. */
  status: string | null;
  institution: { institution_id: string; name: string } | null;
  [key: string]: unknown;
}

/** The API error object Link ended with. */
export interface LinkError {
  type: string;
  code: string;
  message: string;
  request_id: string;
}

export interface LinkOptions {
  /** A link token (fc_link_...) from client.link.tokenCreate on your server. */
  token: string;
  /** The user connected: send publicToken to your server, which calls client.link.tokenExchange. */
  onSuccess: (publicToken: string, metadata: LinkSuccessMetadata) => void;
  /** The user left without connecting; error is null unless an error ended the flow. */
  onExit?: (error: LinkError | null, metadata: LinkExitMetadata) => void;
  /** Progress: CONSENT, SELECT_INSTITUTION, CREDENTIALS, MFA, CONNECTED, ERROR, DONE. */
  onEvent?: (eventName: string, metadata: Record<string, unknown>) => void;
}

export interface LinkHandler {
  /** Shows Link in a modal overlay. */
  open(): void;
  /** Closes it as if the user had (onExit, or onSuccess if they already connected). */
  exit(): void;
  /** Removes it without calling back. */
  destroy(): void;
}

export interface FincoreLinkGlobal {
  version: string;
  create(options: LinkOptions): LinkHandler;
}

type LinkWindow = { FincoreLink?: FincoreLinkGlobal };

const pending = new Map<string, Promise<FincoreLinkGlobal>>();

/** The script's URL for a deployment: {base_url}/link/sdk.js. */
export function linkSdkUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/link/sdk.js`;
}

/**
 * Loads {base_url}/link/sdk.js once per page (concurrent and repeated calls share one script tag)
 * and resolves the FincoreLink global it installs.
 */
export function loadLinkSdk(baseUrl: string): Promise<FincoreLinkGlobal> {
  if (typeof document === 'undefined' || typeof window === 'undefined') {
    return Promise.reject(new Error('@fincore/sdk/link runs in the browser: call it from an event handler or effect, not during server rendering'));
  }
  const loaded = (window as unknown as LinkWindow).FincoreLink;
  if (loaded?.version) return Promise.resolve(loaded);
  const src = linkSdkUrl(baseUrl);
  const existing = pending.get(src);
  if (existing) return existing;
  const promise = new Promise<FincoreLinkGlobal>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => {
      const sdk = (window as unknown as LinkWindow).FincoreLink;
      if (sdk?.version) resolve(sdk);
      else reject(new Error(`${src} loaded but did not install FincoreLink`));
    };
    script.onerror = () => reject(new Error(`could not load ${src}`));
    document.head.appendChild(script);
  });
  pending.set(src, promise);
  // A failed load may be retried (a flaky network), so it is not kept.
  promise.catch(() => pending.delete(src));
  return promise;
}

/** Loads the SDK if needed, creates a handler and opens Link. Call it from a click handler. */
export async function openLink(baseUrl: string, options: LinkOptions): Promise<LinkHandler> {
  const sdk = await loadLinkSdk(baseUrl);
  const handler = sdk.create(options);
  handler.open();
  return handler;
}
