// GET /link/sdk.js: the Link SDK (FincoreLink.create({ token, onSuccess, onExit }).open()).
import { linkSdk } from '../contracts/routes';
import { LINK_SDK_SCRIPT } from '../platform/link-ui/generated/bundles';
import { defineOperation } from '../platform/operation';

const HEADERS = {
  'Cache-Control': 'public, max-age=300',
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

export const handler = defineOperation(linkSdk, () => ({ statusCode: 200, headers: HEADERS, body: LINK_SDK_SCRIPT }));
