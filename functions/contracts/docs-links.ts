// Paths of the browsable documentation, relative to the API's base URL. Kept here (importing
// nothing) so the error envelope, the docs routes and llms.txt all point at the same anchors.

/** The interactive API reference rendered from openapi.json. */
export const DOCS_PATH = '/docs';

/** The error catalogue page: one entry per public error code, anchored by the code. */
export const ERRORS_DOCS_PATH = '/docs/errors';

/** Where an error code is explained: `/docs/errors#<code>` (prefix with the base URL). */
export function errorDocumentationPath(code: string): string {
  return `${ERRORS_DOCS_PATH}#${code}`;
}
