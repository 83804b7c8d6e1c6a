// Serving the Link page and SDK through the standard operation pipeline (request id, error envelope,
// access log) while adding what a plain string result cannot carry: the page's own status code and
// its security and caching headers.
import type { Context } from 'aws-lambda';
import { defineOperation, type LambdaHandler, type OperationContextOf } from '../operation';
import type { ApiEvent } from '../middleware';
import type { RenderedPage } from './page';

/** The routes whose answer is a rendered page or script rather than JSON. */
export type RenderedRouteId = 'link.page' | 'link.sdk';

export function renderedOperation(
  routeId: RenderedRouteId,
  impl: (ctx: OperationContextOf<RenderedRouteId>) => Promise<RenderedPage> | RenderedPage,
): LambdaHandler {
  const rendered = new WeakMap<ApiEvent, RenderedPage>();
  const inner = defineOperation(routeId, async (ctx) => {
    const page = await impl(ctx);
    rendered.set(ctx.event, page);
    return page.body;
  });
  return async (event: ApiEvent, context: Context) => {
    const result = await inner(event, context);
    const page = rendered.get(event);
    if (!page || result.statusCode !== 200) return result;
    return { ...result, statusCode: page.statusCode, headers: { ...result.headers, ...page.headers } };
  };
}
