// POST /v1/graphql: the read-only GraphQL gateway (functions/surfaces/graphql). The middlewares have
// authenticated and metered the caller (one HTTP request, one API request) and size-checked the raw body.
import { graphqlQuery } from '../contracts/routes';
import { defineOperation } from '../platform/operation';
import { serveGraphql } from '../surfaces/graphql/http';

export const handler = defineOperation(graphqlQuery, ({ body, event, auth, deps, requestId, baseUrl }) => serveGraphql({ body, event, auth, deps, requestId, baseUrl }));
