// Both docs pages resolve their links relative to their own path, so each lives at one URL only.
import type { RenderedResponse } from '../../platform/operation';

/**
 * A docs path with a trailing slash (`/docs/`, which API Gateway and the local server route here
 * too) is redirected to the path without it, where the page's relative links resolve. Relative
 * Location (`../docs`), so it keeps whatever stage prefix the gateway put in front of the path.
 */
export function trailingSlashRedirect(path: string): RenderedResponse | null {
  if (path.length <= 1 || !path.endsWith('/')) return null;
  const last = path.slice(0, -1).split('/').pop() ?? '';
  return {
    statusCode: 308,
    headers: { Location: `../${encodeURIComponent(last)}`, 'Cache-Control': 'no-store', 'Content-Type': 'text/plain; charset=utf-8' },
    body: 'The page is at this path without the trailing slash.\n',
  };
}
