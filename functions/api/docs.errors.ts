// GET /docs/errors: every public error code with its status, type, message and what to do, the
// target of every error envelope's `documentation_url` (functions/surfaces/docs/errors-page.ts).
import { docsErrors } from '../contracts/routes';
import { defineOperation, PUBLIC_DOCUMENT_CACHE_CONTROL } from '../platform/operation';
import { renderErrorsPage } from '../surfaces/docs/errors-page';
import { trailingSlashRedirect } from '../surfaces/docs/redirect';

export const handler = defineOperation(docsErrors, ({ event }) => trailingSlashRedirect(event.path) ?? renderErrorsPage(), {
  cacheControl: PUBLIC_DOCUMENT_CACHE_CONTROL,
});
