// GET /v1/graphql: GraphiQL, the interactive GraphQL IDE, for the POST route at the same URL. The
// page is a small nonce'd shell; `?asset=<name>&v=<sha-256>` serves the scripts and stylesheet it
// loads (GraphiQL, React), bundled with this function: no CDN (functions/surfaces/graphiql/page.ts).
import { graphqlIde } from '../contracts/routes';
import { defineOperation } from '../platform/operation';
import { renderGraphiqlShell, serveGraphiqlAsset } from '../surfaces/graphiql/page';

export const handler = defineOperation(graphqlIde, ({ event }) => {
  const query = event.queryStringParameters ?? {};
  return query.asset === undefined ? renderGraphiqlShell() : serveGraphiqlAsset(query.asset, query.v);
});
