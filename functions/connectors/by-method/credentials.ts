// The adapters Link's credentials steps (link.connect, link.mfa) build: this release's only
// username-and-password connector is the sandbox simulator (./../choice.ts says which method each
// adapter uses; a step answers a connector of another method without building it).
import { SANDBOX_CONNECTOR_ID } from '../../core/connectors';
import type { AdapterSet } from '../registry';
import { sandboxConnector } from '../sandbox';

export const CREDENTIALS_ADAPTERS: AdapterSet = new Map([[SANDBOX_CONNECTOR_ID, () => sandboxConnector]]);
