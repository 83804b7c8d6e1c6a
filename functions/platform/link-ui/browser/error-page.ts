// The script of the error page when it is shown inside the SDK modal (bundled by
// bin/build-link-ui.ts): Exit, Escape, or the SDK's Close report the error to the integrator's
// onExit, once (so does the header's Close). The error itself is decided and rendered by the server (../page.ts).
import { isSdkCloseMessage, LINK_ERROR_ELEMENT_ID, type LinkErrorPageConfig, type LinkPageMessage } from '../protocol';

function runErrorPage(cfg: LinkErrorPageConfig): void {
  let sent = false;
  function exit(): void {
    if (sent || window.parent === window) return;
    sent = true;
    const message: LinkPageMessage = {
      source: 'fincore-link',
      type: 'exit',
      error: cfg.error,
      metadata: { link_session_id: null, status: 'ERROR', institution: null },
    };
    window.parent.postMessage(message, cfg.parentOrigin);
  }
  document.getElementById('fc-exit')?.addEventListener('click', exit);
  // The header's Close does what Exit does.
  document.getElementById('fc-close')?.addEventListener('click', exit);
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      exit();
    }
  });
  window.addEventListener('message', (e) => {
    if (e.source === window.parent && e.origin === cfg.parentOrigin && isSdkCloseMessage(e.data)) exit();
  });
  document.getElementById('fc-heading')?.focus();
}

const configNode = document.getElementById(LINK_ERROR_ELEMENT_ID);
if (configNode) runErrorPage(JSON.parse(configNode.textContent ?? '') as LinkErrorPageConfig);
