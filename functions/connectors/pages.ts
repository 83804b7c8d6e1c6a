// Following a provider's next-page links safely: only on the provider's own host (the request's
// credentials go with every page), never the same page twice, and never more than `maxPages` pages.
// Any failure fails the whole listing, so a pull never reports part of a list as the whole of it.
import { ConnectorError } from '../core/connector-port';

export interface NextLinkListing<T> {
  /** Names the listing in errors ("Listing transactions"). */
  what: string;
  /** The provider's base URL: relative next links resolve against it, and must stay on its origin. */
  baseUrl: string;
  maxPages: number;
  /** The first page's body. */
  first: () => Promise<unknown>;
  /** A later page's body, by its absolute URL. */
  fetch: (url: string) => Promise<unknown>;
  /** A body's items and its next link (null on the last page). */
  pageOf: (body: unknown) => { items: T[]; next: string | null };
}

export async function followNextLinks<T>(listing: NextLinkListing<T>): Promise<T[]> {
  const { what, baseUrl, maxPages } = listing;
  const origin = new URL(baseUrl).origin;
  const items: T[] = [];
  const seen = new Set<string>();
  let body = await listing.first();
  for (let page = 1; ; page += 1) {
    const { items: pageItems, next } = listing.pageOf(body);
    items.push(...pageItems);
    if (next === null) return items;
    let nextUrl: URL;
    try {
      nextUrl = new URL(next, baseUrl);
    } catch {
      throw new ConnectorError('provider_error', `${what}: the provider sent an unreadable next-page link.`);
    }
    if (nextUrl.origin !== origin) throw new ConnectorError('provider_error', `${what}: the provider sent a next-page link to another host.`);
    if (seen.has(nextUrl.toString())) throw new ConnectorError('provider_error', `${what}: the provider repeated a page.`);
    if (page >= maxPages) throw new ConnectorError('provider_error', `${what} returned more than ${maxPages} pages.`);
    seen.add(nextUrl.toString());
    body = await listing.fetch(nextUrl.toString());
  }
}
