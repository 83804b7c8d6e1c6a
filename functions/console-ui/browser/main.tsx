// Entry point of the console's script (bundled by bin/build-console-ui.ts into one file, loaded by
// the shell at /console/ under its nonce and Subresource Integrity).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';

const root = document.getElementById('console-root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
