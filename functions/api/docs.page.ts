// GET /docs: the interactive API reference, Redoc over this deployment's openapi.json. The page is
// a small nonce'd shell; `?asset=<name>&v=<sha-256>` serves Redoc's script, bundled with this
// function: no CDN (functions/surfaces/docs/page.ts).
import { docsPage } from '../contracts/routes';
import { defineOperation } from '../platform/operation';
import { renderDocsShell, serveDocsAsset } from '../surfaces/docs/page';
import { trailingSlashRedirect } from '../surfaces/docs/redirect';

export const handler = defineOperation(docsPage, ({ event }) => {
  const query = event.queryStringParameters ?? {};
  if (query.asset !== undefined) return serveDocsAsset(query.asset, query.v);
  return trailingSlashRedirect(event.path) ?? renderDocsShell();
});
