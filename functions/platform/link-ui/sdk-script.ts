// The Link SDK served at GET /link/sdk.js: a small dependency-free script for integrators' pages.
//
//   <script src="{base_url}/link/sdk.js"></script>
//   const link = FincoreLink.create({ token, onSuccess(public_token, metadata) {}, onExit(error, metadata) {} });
//   link.open();      // shows hosted Link in a modal overlay (an iframe of {base_url}/link?token=...&embed=1)
//   link.destroy();   // removes it without calling back
//
// The script derives Link's address from its own src (document.currentScript), so the same file
// works on every deployment. The page posts {source:'fincore-link', type, ...} to this page's origin
// only (passed as &origin=); the SDK accepts messages only from Link's origin and its own iframe.
// Escape or the Close button closes the modal and calls onExit (null unless an error ended the
// flow; a connection that already succeeded is still delivered through onSuccess).

export const LINK_SDK_SCRIPT = String.raw`/*! Fincore Link SDK v1 */
(function () {
  'use strict';
  if (window.FincoreLink && window.FincoreLink.version) return;
  var script = document.currentScript;
  if (!script || !script.src) {
    throw new Error('FincoreLink: load the SDK with <script src=".../link/sdk.js">; it must not be bundled or inlined.');
  }
  var PAGE_URL = new URL('../link', script.src).toString();
  var LINK_ORIGIN = new URL(script.src).origin;
  var CLOSE_TIMEOUT_MS = 1000;

  function noop() {}
  function css(node, text) { node.style.cssText = text; return node; }

  function create(options) {
    if (!options || typeof options.token !== 'string' || !/^fc_link_[A-Za-z0-9]+$/.test(options.token)) {
      throw new Error('FincoreLink.create: token must be a link token (fc_link_...) from /v1/link/token/create.');
    }
    if (!/^https?:$/.test(window.location.protocol)) {
      throw new Error('FincoreLink: the host page must be served over http(s).');
    }
    var onSuccess = typeof options.onSuccess === 'function' ? options.onSuccess : noop;
    var onExit = typeof options.onExit === 'function' ? options.onExit : noop;
    var onEvent = typeof options.onEvent === 'function' ? options.onEvent : noop;
    var overlay = null;
    var frame = null;
    var closeButton = null;
    var closeTimer = null;
    var previousFocus = null;
    var lastMetadata = { link_session_id: null, status: null, institution: null };
    var destroyed = false;

    function teardown() {
      clearTimeout(closeTimer);
      closeTimer = null;
      window.removeEventListener('message', onMessage);
      document.removeEventListener('keydown', onKeydown, true);
      document.removeEventListener('focusin', onFocusin, true);
      if (overlay && overlay.parentNode) overlay.parentNode.removeChild(overlay);
      overlay = null;
      frame = null;
      closeButton = null;
      if (previousFocus && typeof previousFocus.focus === 'function') {
        try { previousFocus.focus(); } catch (e) { /* element gone */ }
      }
      previousFocus = null;
    }
    function finish(callback, args) {
      if (!overlay) return;
      teardown();
      try { callback.apply(null, args); } catch (e) { setTimeout(function () { throw e; }); }
    }

    function onMessage(event) {
      if (!frame || event.origin !== LINK_ORIGIN || event.source !== frame.contentWindow) return;
      var data = event.data;
      if (!data || typeof data !== 'object' || data.source !== 'fincore-link') return;
      if (data.metadata && typeof data.metadata === 'object') lastMetadata = data.metadata;
      if (data.type === 'success' && typeof data.public_token === 'string') {
        finish(onSuccess, [data.public_token, data.metadata || {}]);
      } else if (data.type === 'exit') {
        finish(onExit, [data.error || null, data.metadata || lastMetadata]);
      } else if (data.type === 'event') {
        try { onEvent(data.event_name, data.metadata || {}); } catch (e) { setTimeout(function () { throw e; }); }
      }
    }
    // Ask the page to close (it answers success if the user already connected, exit otherwise);
    // without an answer (page not loaded), exit with what is known.
    function requestClose() {
      if (!overlay || closeTimer) return;
      try {
        frame.contentWindow.postMessage({ source: 'fincore-link-sdk', type: 'close' }, LINK_ORIGIN);
      } catch (e) { /* not loaded yet */ }
      closeTimer = setTimeout(function () { finish(onExit, [null, lastMetadata]); }, CLOSE_TIMEOUT_MS);
    }
    function onKeydown(event) {
      if (event.key === 'Escape' && overlay) {
        event.preventDefault();
        requestClose();
      }
    }

    // Keeps keyboard focus inside the modal (the Close button or the Link iframe) while it is open.
    function onFocusin(event) {
      if (overlay && !overlay.contains(event.target) && closeButton) closeButton.focus();
    }

    function open() {
      if (destroyed) throw new Error('FincoreLink: this handler was destroyed; create a new one.');
      if (overlay) return;
      previousFocus = document.activeElement;
      overlay = css(document.createElement('div'),
        'position:fixed;inset:0;z-index:2147483000;display:flex;align-items:center;justify-content:center;' +
        'background:rgba(15,23,42,.55);padding:16px;box-sizing:border-box;');
      overlay.setAttribute('data-fincore-link', '');
      var dialog = css(document.createElement('div'),
        'position:relative;width:420px;max-width:100%;height:680px;max-height:100%;background:#fff;border-radius:20px;' +
        'overflow:hidden;box-shadow:0 24px 64px rgba(15,23,42,.35);display:flex;flex-direction:column;');
      dialog.setAttribute('role', 'dialog');
      dialog.setAttribute('aria-modal', 'true');
      dialog.setAttribute('aria-label', 'Connect your account with Fincore');
      var bar = css(document.createElement('div'),
        'display:flex;justify-content:flex-end;padding:8px 8px 0;background:#fff;');
      var close = css(document.createElement('button'),
        'font:600 14px/1 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#0f172a;background:#f1f5f9;' +
        'border:1px solid #d5dce6;border-radius:10px;padding:8px 12px;cursor:pointer;');
      close.type = 'button';
      close.textContent = 'Close';
      close.addEventListener('click', requestClose);
      closeButton = close;
      frame = css(document.createElement('iframe'), 'flex:1;width:100%;border:0;display:block;background:#fff;');
      frame.title = 'Fincore Link';
      frame.setAttribute('allow', '');
      frame.setAttribute('referrerpolicy', 'no-referrer');
      frame.src = PAGE_URL + '?token=' + encodeURIComponent(options.token) + '&embed=1&origin=' + encodeURIComponent(window.location.origin);
      frame.addEventListener('load', function () { if (frame) frame.focus(); });
      bar.appendChild(close);
      dialog.appendChild(bar);
      dialog.appendChild(frame);
      overlay.appendChild(dialog);
      window.addEventListener('message', onMessage);
      document.addEventListener('keydown', onKeydown, true);
      document.addEventListener('focusin', onFocusin, true);
      document.body.appendChild(overlay);
      frame.focus();
    }

    return {
      open: open,
      /** Closes the modal as if the user pressed Close (onExit, or onSuccess if already connected). */
      exit: requestClose,
      /** Removes the modal and listeners; no callback is called. */
      destroy: function () {
        destroyed = true;
        teardown();
      }
    };
  }

  window.FincoreLink = { version: '1', create: create };
})();
`;
