// The Link SDK served at GET /link/sdk.js (bundled by bin/build-link-ui.ts): a small
// dependency-free script for integrators' pages.
//
//   <script src="{base_url}/link/sdk.js"></script>
//   const link = FincoreLink.create({ token, onSuccess(public_token, metadata) {}, onExit(error, metadata) {} });
//   link.open();      // shows hosted Link in a modal overlay (an iframe of {base_url}/link?token=...&embed=1)
//   link.destroy();   // removes it without calling back
//
// OAuth institutions whose consent comes back to the link token's redirect_uri (Plaid's OAuth
// redirect): Link asks the SDK to send this page to the institution (top-level, the only place a
// bank's consent page runs). The page at the redirect_uri re-opens Link with the same token and
// `receivedRedirectUri: window.location.href`, which resumes the consent where it stopped.
//
// The script derives Link's address from its own src (document.currentScript), so the same file
// works on every deployment. The page posts {source:'fincore-link', type, ...} to this page's origin
// only (passed as &origin=); the SDK accepts messages only from Link's origin and its own iframe.
// Escape or the Close button closes the modal and calls onExit (null unless an error ended the
// flow; a connection that already succeeded is still delivered through onSuccess).
//
// Integrators call it from plain JavaScript, so every option is checked at run time.
import type { LinkExitMetadata, LinkPageMessage, LinkSdkCloseMessage } from '../protocol';

type Callback = (...args: unknown[]) => void;

interface LinkHandler {
  open(): void;
  /** Closes the modal as if the user pressed Close (onExit, or onSuccess if already connected). */
  exit(): void;
  /** Removes the modal and listeners; no callback is called. */
  destroy(): void;
}

interface FincoreLinkGlobal {
  version: string;
  create(options: unknown): LinkHandler;
}

const host = window as Window & { FincoreLink?: Partial<FincoreLinkGlobal> };
const CLOSE_TIMEOUT_MS = 1000;

function noop(): void {}

function css<T extends HTMLElement>(node: T, text: string): T {
  node.style.cssText = text;
  return node;
}

function callbackOf(options: Record<string, unknown>, name: string): Callback {
  const value = options[name];
  return typeof value === 'function' ? (value as Callback) : noop;
}

/** Runs an integrator callback; its exception must not break the SDK, but must still be reported. */
function callSafely(callback: Callback, args: unknown[]): void {
  try {
    callback(...args);
  } catch (e) {
    window.setTimeout(() => {
      throw e;
    });
  }
}

/** Link's messages are untrusted data until checked: an object that says it comes from Link. */
function isPageMessage(data: unknown): data is LinkPageMessage {
  return typeof data === 'object' && data !== null && (data as { source?: unknown }).source === 'fincore-link';
}

function installSdk(script: HTMLScriptElement): void {
  const pageUrl = new URL('../link', script.src).toString();
  const linkOrigin = new URL(script.src).origin;

  function create(rawOptions: unknown): LinkHandler {
    const options = (typeof rawOptions === 'object' && rawOptions !== null ? rawOptions : {}) as Record<string, unknown>;
    if (typeof options.token !== 'string' || !/^fc_link_[A-Za-z0-9]+$/.test(options.token)) {
      throw new Error('FincoreLink.create: token must be a link token (fc_link_...) from /v1/link/token/create.');
    }
    const token: string = options.token;
    if (!/^https?:$/.test(window.location.protocol)) {
      throw new Error('FincoreLink: the host page must be served over http(s).');
    }
    const onSuccess = callbackOf(options, 'onSuccess');
    const onExit = callbackOf(options, 'onExit');
    const onEvent = callbackOf(options, 'onEvent');
    // The URL the integrator's redirect_uri page was opened at, when it re-opens Link after an OAuth consent.
    const received = options.receivedRedirectUri;
    if (received !== undefined && received !== null && (typeof received !== 'string' || !/^https?:\/\//i.test(received))) {
      throw new Error('FincoreLink.create: receivedRedirectUri must be the full http(s) URL of the redirect page (window.location.href).');
    }
    const receivedRedirectUri = typeof received === 'string' ? received : null;
    let overlay: HTMLDivElement | null = null;
    let frame: HTMLIFrameElement | null = null;
    let closeButton: HTMLButtonElement | null = null;
    let closeTimer: number | undefined;
    let previousFocus: Element | null = null;
    let lastMetadata: unknown = { link_session_id: null, status: null, institution: null } satisfies LinkExitMetadata;
    let destroyed = false;

    function teardown(): void {
      window.clearTimeout(closeTimer);
      closeTimer = undefined;
      window.removeEventListener('message', onMessage);
      document.removeEventListener('keydown', onKeydown, true);
      document.removeEventListener('focusin', onFocusin, true);
      overlay?.parentNode?.removeChild(overlay);
      overlay = null;
      frame = null;
      closeButton = null;
      const focusable = previousFocus as HTMLElement | null;
      if (focusable && typeof focusable.focus === 'function') {
        try {
          focusable.focus();
        } catch {
          // the element is gone
        }
      }
      previousFocus = null;
    }
    function finish(callback: Callback, args: unknown[]): void {
      if (!overlay) return;
      teardown();
      callSafely(callback, args);
    }

    function onMessage(event: MessageEvent): void {
      if (!frame || event.origin !== linkOrigin || event.source !== frame.contentWindow) return;
      const data: unknown = event.data;
      if (!isPageMessage(data)) return;
      if (data.type === 'oauth_redirect') {
        // Only to a web page: the institution's consent page, top-level. This page is left, so no callback runs.
        if (typeof data.url === 'string' && /^https?:\/\//i.test(data.url)) {
          teardown();
          window.location.assign(data.url);
        }
        return;
      }
      if (data.metadata && typeof data.metadata === 'object') lastMetadata = data.metadata;
      if (data.type === 'success' && typeof data.public_token === 'string') {
        finish(onSuccess, [data.public_token, data.metadata || {}]);
      } else if (data.type === 'exit') {
        finish(onExit, [data.error || null, data.metadata || lastMetadata]);
      } else if (data.type === 'event') {
        callSafely(onEvent, [data.event_name, data.metadata || {}]);
      }
    }
    // Ask the page to close (it answers success if the user already connected, exit otherwise);
    // without an answer (page not loaded), exit with what is known.
    function requestClose(): void {
      if (!overlay || closeTimer !== undefined) return;
      try {
        const close: LinkSdkCloseMessage = { source: 'fincore-link-sdk', type: 'close' };
        frame?.contentWindow?.postMessage(close, linkOrigin);
      } catch {
        // not loaded yet
      }
      closeTimer = window.setTimeout(() => finish(onExit, [null, lastMetadata]), CLOSE_TIMEOUT_MS);
    }
    function onKeydown(event: KeyboardEvent): void {
      if (event.key === 'Escape' && overlay) {
        event.preventDefault();
        requestClose();
      }
    }

    // Keeps keyboard focus inside the modal (the Close button or the Link iframe) while it is open.
    function onFocusin(event: FocusEvent): void {
      if (overlay && !overlay.contains(event.target as Node | null) && closeButton) closeButton.focus();
    }

    function open(): void {
      if (destroyed) throw new Error('FincoreLink: this handler was destroyed; create a new one.');
      if (overlay) return;
      previousFocus = document.activeElement;
      const modal = css(
        document.createElement('div'),
        'position:fixed;inset:0;z-index:2147483000;display:flex;align-items:center;justify-content:center;' +
          'background:rgba(15,23,42,.55);padding:16px;box-sizing:border-box;',
      );
      modal.setAttribute('data-fincore-link', '');
      const dialog = css(
        document.createElement('div'),
        'position:relative;width:420px;max-width:100%;height:680px;max-height:100%;background:#fff;border-radius:20px;' +
          'overflow:hidden;box-shadow:0 24px 64px rgba(15,23,42,.35);display:flex;flex-direction:column;',
      );
      dialog.setAttribute('role', 'dialog');
      dialog.setAttribute('aria-modal', 'true');
      dialog.setAttribute('aria-label', 'Connect your account with Fincore');
      const bar = css(document.createElement('div'), 'display:flex;justify-content:flex-end;padding:8px 8px 0;background:#fff;');
      const close = css(
        document.createElement('button'),
        'font:600 14px/1 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#0f172a;background:#f1f5f9;' +
          'border:1px solid #d5dce6;border-radius:10px;padding:8px 12px;cursor:pointer;',
      );
      close.type = 'button';
      close.textContent = 'Close';
      close.addEventListener('click', requestClose);
      const iframe = css(document.createElement('iframe'), 'flex:1;width:100%;border:0;display:block;background:#fff;');
      iframe.title = 'Fincore Link';
      iframe.setAttribute('allow', '');
      iframe.setAttribute('referrerpolicy', 'no-referrer');
      iframe.src =
        `${pageUrl}?token=${encodeURIComponent(token)}&embed=1&origin=${encodeURIComponent(window.location.origin)}` +
        (receivedRedirectUri ? `&received_redirect_uri=${encodeURIComponent(receivedRedirectUri)}` : '');
      iframe.addEventListener('load', () => frame?.focus());
      bar.appendChild(close);
      dialog.appendChild(bar);
      dialog.appendChild(iframe);
      modal.appendChild(dialog);
      overlay = modal;
      frame = iframe;
      closeButton = close;
      window.addEventListener('message', onMessage);
      document.addEventListener('keydown', onKeydown, true);
      document.addEventListener('focusin', onFocusin, true);
      document.body.appendChild(modal);
      iframe.focus();
    }

    return {
      open,
      exit: requestClose,
      destroy() {
        destroyed = true;
        teardown();
      },
    };
  }

  host.FincoreLink = { version: '1', create };
}

// Loaded twice on one page, the first copy stays (handlers created from it keep working).
if (!host.FincoreLink?.version) {
  const script = document.currentScript;
  if (!(script instanceof HTMLScriptElement) || !script.src) {
    throw new Error('FincoreLink: load the SDK with <script src=".../link/sdk.js">; it must not be bundled or inlined.');
  }
  installSdk(script);
}
