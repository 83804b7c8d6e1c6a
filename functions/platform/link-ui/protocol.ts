// What the server-rendered Link pages and their browser code (./browser) agree on: the JSON
// configuration blocks the server writes into a page, and the postMessage protocol between the
// page and the SDK on the integrator's page. Types and a few constant ids only, so both the Lambda
// bundle and the browser bundles can import this module without pulling anything else in.
import type { z } from 'zod';
import type { ErrorCode, ErrorType } from '../../contracts/errors';
import type { LinkSession, LinkStep, LinkSuccessMetadata } from '../../contracts/link-schemas';
import type { RouteById } from '../../contracts/routes';
import type { Institution, INSTITUTION_TYPES } from '../../contracts/schemas';

/** The id of the JSON block holding the flow page's configuration (the link token among it). */
export const LINK_CONFIG_ELEMENT_ID = 'fc-link-config';
/** The id of the JSON block an embedded error page reports to the SDK from. */
export const LINK_ERROR_ELEMENT_ID = 'fc-link-error';

/**
 * Errors that end the flow (error screen + Exit). Every other error is shown inline and the user
 * can retry or go back: invalid_credentials and invalid_mfa_code above all. The page's catalogues
 * (./i18n) hold a title and a next step for each.
 */
export const LINK_FATAL_ERRORS = [
  'item_locked',
  'too_many_attempts',
  'link_token_used',
  'link_token_expired',
  'invalid_link_token',
  'provider_error',
  'institution_mismatch',
  'no_mfa_pending',
] as const satisfies readonly ErrorCode[];
export type LinkFatalErrorCode = (typeof LINK_FATAL_ERRORS)[number];

/** What /link/api/session answers; the page renders straight from it. */
export type LinkPageSession = z.infer<typeof LinkSession>;
export type LinkStepResult = z.infer<typeof LinkStep>;
export type LinkConnectedStep = Extract<LinkStepResult, { status: 'connected' }>;
/** The step after a connection when the user chooses the accounts to share (/link/api/accounts/select). */
export type LinkSelectAccountsStep = Extract<LinkStepResult, { status: 'select_accounts' }>;
export type LinkSuccessMetadataView = z.infer<typeof LinkSuccessMetadata>;
export type InstitutionTypeName = (typeof INSTITUTION_TYPES)[number];
/** An institution as /link/api/institutions (and the session, when one is fixed) describe it. */
export type InstitutionView = z.infer<typeof Institution>;

/** What /link/api/method answers: how the page collects consent for an institution. */
export type LinkConsentMethod = z.infer<RouteById<'link.method'>['response']>;

/** What both pages that run the flow (GET /link and the OAuth callback) tell the script. */
interface LinkFlowBase {
  types: readonly InstitutionTypeName[];
  countries: readonly string[];
  /** Where the page's API is, relative to the page's own URL (the callback is one level deeper). */
  apiBase: string;
  /** The largest statement file the upload takes (checked in the browser before sending it). */
  uploadMaxBytes: number;
}

/** The flow page's configuration block. */
export interface LinkPageConfig extends LinkFlowBase {
  mode: 'flow';
  token: string;
  embed: boolean;
  parentOrigin: string | null;
  session: LinkPageSession;
  /**
   * The URL the integrator's redirect_uri page was opened at when it re-opened Link after an OAuth
   * consent (`received_redirect_uri` on GET /link, the SDK's `receivedRedirectUri`): the flow resumes
   * the consent from it (/link/api/oauth/resume) instead of starting over.
   */
  receivedRedirectUri?: string | null;
  /**
   * The session ended at the account-selection step and the page was loaded again before the choice:
   * the flow opens at that step (with a public token of its own) instead of the consent screen.
   */
  selectionStep?: LinkSelectAccountsStep | null;
}

/** What the provider's redirect back to /link/oauth/callback carried (null when absent). */
export interface LinkOauthReturn {
  /** `state`, or `ref` for providers that send the state back under that name. */
  state: string | null;
  code: string | null;
  error: string | null;
}

/** The OAuth callback page's configuration block: no token (the page kept it in sessionStorage). */
export interface LinkOauthReturnConfig extends LinkFlowBase {
  mode: 'oauth_return';
  oauth: LinkOauthReturn;
}

/** What the flow keeps in sessionStorage while the user is at the provider, to resume on the callback page. */
export interface LinkOauthResume {
  token: string;
  parentOrigin: string | null;
  institution: { institution_id: string; name: string; primary_color?: string | null; logo?: string | null };
  fixed: boolean;
}

/** The sessionStorage key of LinkOauthResume. */
export const LINK_OAUTH_RESUME_KEY = 'fincore-link-oauth';

/**
 * Why a page shows the error page instead of the flow: the token problems the contract defines,
 * plus `invalid_embed`, which only the page knows (embed=1 without a usable parent origin).
 */
export type LinkPageProblem = Extract<ErrorCode, 'invalid_link_token' | 'link_token_expired' | 'link_token_used' | 'internal_error'> | 'invalid_embed';

/** The error handed to the integrator's onExit. */
export interface PublicLinkError {
  type: ErrorType;
  code: ErrorCode | LinkPageProblem;
  message: string;
  request_id: string | null;
  /** The code's entry at {base_url}/docs/errors, as in the API's error envelope (null for the page's own invalid_embed). */
  documentation_url: string | null;
  /** A sentence the integrator may show its user, or null (the API envelope's display_message). */
  display_message: string | null;
}

/** An embedded error page's configuration block. */
export interface LinkErrorPageConfig {
  parentOrigin: string;
  error: PublicLinkError;
}

/** The screens of the flow, also the event names and the `status` the SDK reports. */
export type LinkView =
  | 'CONSENT'
  | 'SELECT_INSTITUTION'
  | 'CREDENTIALS'
  | 'MFA'
  /** The request that connects (credentials, code, key or address) is in flight: progress is shown. */
  | 'LOADING'
  | 'OAUTH'
  | 'API_KEY'
  | 'ADDRESS'
  | 'UPLOAD'
  /** The user chooses which of the connected accounts to share. */
  | 'SELECT_ACCOUNTS'
  | 'CONNECTED'
  | 'DONE'
  | 'ERROR';

export interface LinkExitMetadata {
  link_session_id: string | null;
  status: LinkView | null;
  institution: { institution_id: string; name: string } | null;
}

/** Page -> SDK, posted to the parent origin the SDK declared. */
export type LinkPageMessage =
  | { source: 'fincore-link'; type: 'event'; event_name: LinkView; metadata: LinkExitMetadata }
  | { source: 'fincore-link'; type: 'success'; public_token: string; metadata: LinkSuccessMetadataView }
  | { source: 'fincore-link'; type: 'exit'; error: PublicLinkError | null; metadata: LinkExitMetadata }
  /**
   * An OAuth consent that comes back to the integrator's redirect_uri: the institution's page must
   * run top-level, so the SDK sends the integrator's page there (the page re-opens Link with
   * receivedRedirectUri on the way back).
   */
  | { source: 'fincore-link'; type: 'oauth_redirect'; url: string };

/** SDK -> page: the user pressed Close or Escape on the integrator's page. */
export interface LinkSdkCloseMessage {
  source: 'fincore-link-sdk';
  type: 'close';
}

/** Whether a message event's data is the SDK asking the page to close (data is untrusted input). */
export function isSdkCloseMessage(data: unknown): data is LinkSdkCloseMessage {
  if (typeof data !== 'object' || data === null) return false;
  const message = data as Partial<Record<keyof LinkSdkCloseMessage, unknown>>;
  return message.source === 'fincore-link-sdk' && message.type === 'close';
}
