// Schemas of the console's own API (POST /console/api/...; docs/console.md): what each console route
// takes and answers. The console's web app is the one intended caller; these routes are left out of
// the public documents (openapi.json, llms.txt, the SDKs, GraphQL and MCP: Route.console).
//
// Every top-level value is `/* @__PURE__ */`, and a call whose arguments would do anything (build a
// schema, read a constant) is made in an arrow called at once, so that a console route's bundle
// carries only what its own route references (functions/contracts/routes.ts).
import * as z from 'zod';
import { CONSOLE_ROLES } from './console-roles';
import { LIMITS, PLAN_NAMES, type PlanName } from './limits';
import { ENVIRONMENTS, ItemError, ItemStatus, Product, TransactionsUpdateStatus } from './schemas';
import { WebhookDelivery, WebhookEndpoint } from './webhook-schemas';

// ---------- the HTTP side: cookies and headers ----------

/** The session cookie: HttpOnly, SameSite=Strict, scoped to the console's path (functions/platform/middleware.ts). */
export const CONSOLE_SESSION_COOKIE = 'fc_console_session';
/** The Cognito sign-in's state, between auth/start and auth/callback (SameSite=Lax: the callback is a cross-site navigation). */
export const CONSOLE_SIGN_IN_COOKIE = 'fc_console_signin';
/** The header every console POST but console.session and the sign-in routes carries the session's CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token';

// ---------- values ----------

/** Local passwords: as long as the Cognito pool's policy asks (lib/console-identity.ts), and bounded. */
export const PASSWORD_LENGTH = { min: 12, max: 256 } as const;

/** A request id as the middleware hands them out and error envelopes carry them. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

export const DELIVERY_STATUSES = ['pending', 'delivered', 'dead_lettered', 'cancelled'] as const;
export const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

/** The largest page of the console's lists. */
export const CONSOLE_PAGES = { auditMax: 200, requestSearchMax: 100, deliveriesMax: 100 } as const;

// Not z.email(): that wants a dotted domain, and the local first owner is owner@localhost.
const Email = /* @__PURE__ */ z
  .string()
  .trim()
  .min(3)
  .max(254)
  .regex(/^[^\s@]+@[^\s@]+$/, 'an e-mail address');

export const OrganizationId = /* @__PURE__ */ z.string().regex(/^org_[0-9a-f]{16}$/, 'expected an organization_id (org_ and 16 hex digits)');
export const OrganizationName = /* @__PURE__ */ z.string().trim().min(1).max(100);
export const UserId = /* @__PURE__ */ z.string().regex(/^usr_[0-9a-f]{16}$/, 'expected a user_id (usr_ and 16 hex digits)');
export const ConsoleRoleInput = /* @__PURE__ */ z.enum(CONSOLE_ROLES);
export const InvitationId = /* @__PURE__ */ z.string().regex(/^inv_[0-9a-f]{16}$/, 'expected an invitation_id (inv_ and 16 hex digits)');
export const InvitationToken = /* @__PURE__ */ z.string().max(200);
export const ApplicationId = /* @__PURE__ */ z.string().regex(/^app_[A-Za-z0-9_-]{1,64}$/, 'expected an application_id (app_...)');
export const PlanInput = /* @__PURE__ */ (() => z.enum(PLAN_NAMES as [PlanName, ...PlanName[]]))();
const ApplicationName = /* @__PURE__ */ z.string().trim().min(1).max(120);
export const EnvironmentInput = /* @__PURE__ */ z.enum(ENVIRONMENTS);
export const KeyId = /* @__PURE__ */ z.string().regex(/^key_[0-9a-f]{16}$/, 'expected a key_id (key_ and 16 hex digits)');
const ConsoleId = /* @__PURE__ */ (() => z.string().min(1).max(LIMITS.idMaxLength))();
const ConsoleCursor = /* @__PURE__ */ (() => z.string().max(LIMITS.cursorMaxLength))();

/** The application and environment a scoped console call acts on (webhooks, request log, usage, items), then `shape`. */
const scoped = <T extends z.ZodRawShape>(shape: T) => z.strictObject({ application_id: ApplicationId, environment: EnvironmentInput, ...shape });

// ---------- sign-in and the session ----------

export const SignInRequest = /* @__PURE__ */ (() => z.strictObject({ email: Email, password: z.string().min(1).max(PASSWORD_LENGTH.max) }))();
export const SignUpRequest = /* @__PURE__ */ (() =>
  z.strictObject({
    email: Email,
    password: z.string().min(PASSWORD_LENGTH.min, `at least ${PASSWORD_LENGTH.min} characters`).max(PASSWORD_LENGTH.max),
    name: z.string().trim().min(1).max(120),
    invitation_token: z.string().min(1).max(200),
  }))();

const ConsoleUserView = /* @__PURE__ */ (() => z.object({ user_id: z.string(), email: z.string(), name: z.string() }))();
const IdentityKind = /* @__PURE__ */ z.enum(['local', 'cognito']);

export const SignInAnswer = /* @__PURE__ */ (() => z.object({ user: ConsoleUserView, csrf_token: z.string(), identity: IdentityKind }))();
export const SignUpAnswer = /* @__PURE__ */ (() =>
  SignInAnswer.extend({
    /** The organisation the invitation made the new user a member of; null when it was spent meanwhile. */
    organization: z.object({ organization_id: z.string(), name: z.string().nullable(), role: ConsoleRoleInput }).nullable(),
  }))();

const OrganizationView = /* @__PURE__ */ (() => z.object({ organization_id: z.string(), name: z.string(), role: ConsoleRoleInput, created_at: z.string() }))();
export const SessionAnswer = /* @__PURE__ */ (() =>
  z.object({ user: ConsoleUserView, organizations: z.array(OrganizationView), csrf_token: z.string(), identity: IdentityKind }))();
export const EmptyRequest = /* @__PURE__ */ z.strictObject({});
export const EmptyAnswer = /* @__PURE__ */ z.object({});

// ---------- organisations, members, invitations ----------

export const CreateOrganizationInput = /* @__PURE__ */ z.strictObject({ name: OrganizationName });
export const DeleteOrganizationInput = /* @__PURE__ */ (() => z.strictObject({ organization_id: OrganizationId, confirm_name: z.string().max(200) }))();
export const CreateOrganizationAnswer = OrganizationView;
export const DeleteOrganizationAnswer = /* @__PURE__ */ (() =>
  z.object({ organization_id: z.string(), deleted: z.boolean(), revoked_keys: z.int().min(0), detached_applications: z.int().min(0) }))();

export const ListMembersInput = /* @__PURE__ */ z.strictObject({ organization_id: OrganizationId });
export const UpdateMemberInput = /* @__PURE__ */ z.strictObject({ organization_id: OrganizationId, user_id: UserId, role: ConsoleRoleInput });
export const RemoveMemberInput = /* @__PURE__ */ z.strictObject({ organization_id: OrganizationId, user_id: UserId });
export const ListMembersAnswer = /* @__PURE__ */ (() =>
  z.object({
    members: z.array(z.object({ user_id: z.string(), email: z.string().nullable(), name: z.string().nullable(), role: ConsoleRoleInput, joined_at: z.string() })),
  }))();
export const UpdateMemberAnswer = /* @__PURE__ */ (() => z.object({ user_id: z.string(), role: ConsoleRoleInput }))();
export const RemoveMemberAnswer = /* @__PURE__ */ (() => z.object({ user_id: z.string(), removed: z.boolean() }))();

export const CreateInvitationInput = /* @__PURE__ */ (() => z.strictObject({ organization_id: OrganizationId, email: z.email().max(254), role: ConsoleRoleInput }))();
export const ListInvitationsInput = /* @__PURE__ */ z.strictObject({ organization_id: OrganizationId });
export const RevokeInvitationInput = /* @__PURE__ */ z.strictObject({ organization_id: OrganizationId, invitation_id: InvitationId });
export const AcceptInvitationInput = /* @__PURE__ */ z.strictObject({ token: InvitationToken });
const InvitationView = /* @__PURE__ */ (() =>
  z.object({
    invitation_id: z.string(),
    email: z.string(),
    role: ConsoleRoleInput,
    created_by: z.string(),
    created_at: z.string(),
    expires_at: z.string(),
  }))();
/** The invitation and its link: the only answer that ever holds the link's token. */
export const CreateInvitationAnswer = /* @__PURE__ */ (() => InvitationView.extend({ invitation_url: z.string() }))();
export const ListInvitationsAnswer = /* @__PURE__ */ (() => z.object({ invitations: z.array(InvitationView) }))();
export const RevokeInvitationAnswer = /* @__PURE__ */ (() => z.object({ invitation_id: z.string(), revoked: z.boolean() }))();
export const AcceptInvitationAnswer = /* @__PURE__ */ (() =>
  z.object({ organization_id: z.string(), name: z.string().nullable(), role: ConsoleRoleInput, joined: z.boolean() }))();

// ---------- applications and keys ----------

export const ListApplicationsInput = /* @__PURE__ */ z.strictObject({ organization_id: OrganizationId });
export const CreateApplicationInput = /* @__PURE__ */ (() =>
  z.strictObject({ organization_id: OrganizationId, name: ApplicationName, plan: PlanInput.optional() }))();
export const UpdateApplicationInput = /* @__PURE__ */ (() =>
  z
    .strictObject({ application_id: ApplicationId, name: ApplicationName.optional(), plan: PlanInput.optional() })
    .refine((input) => input.name !== undefined || input.plan !== undefined, { message: 'give name or plan', path: ['name'], params: { code: 'missing_field' } }))();
const ApplicationView = /* @__PURE__ */ (() =>
  z.object({
    application_id: z.string(),
    organization_id: z.string().nullable(),
    name: z.string(),
    plan: PlanInput,
    live_access: z.boolean(),
    created_at: z.string().nullable(),
  }))();
export const ListApplicationsAnswer = /* @__PURE__ */ (() => z.object({ applications: z.array(ApplicationView) }))();
export const CreateApplicationAnswer = ApplicationView;
export const UpdateApplicationAnswer = /* @__PURE__ */ (() => ApplicationView.extend({ replanned_keys: z.int().min(0) }))();

export const ListKeysInput = /* @__PURE__ */ (() => z.strictObject({ application_id: ApplicationId, environment: EnvironmentInput.optional() }))();
export const CreateKeyInput = /* @__PURE__ */ z.strictObject({ application_id: ApplicationId, environment: EnvironmentInput });
export const RevokeKeyInput = /* @__PURE__ */ z.strictObject({ application_id: ApplicationId, key_id: KeyId });
/** A key as listed: its prefix and last four characters, never the key. */
const KeyView = /* @__PURE__ */ (() =>
  z.object({
    key_id: z.string(),
    environment: EnvironmentInput,
    status: z.enum(['active', 'revoked']),
    display: z.string(),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
  }))();
export const ListKeysAnswer = /* @__PURE__ */ (() => z.object({ keys: z.array(KeyView) }))();
/** The new key, in full: this answer is the only place it ever appears. */
export const CreateKeyAnswer = /* @__PURE__ */ (() => KeyView.extend({ key: z.string(), replaced_key_ids: z.array(z.string()) }))();
export const RevokeKeyAnswer = /* @__PURE__ */ (() => z.object({ key_id: z.string(), environment: EnvironmentInput, status: z.literal('revoked') }))();

// ---------- webhooks ----------

export const EndpointCreateFields = /* @__PURE__ */ (() => z.strictObject({ url: z.url({ protocol: /^https?$/ }).max(LIMITS.stringMaxLength) }))();
export const EndpointDeleteFields = /* @__PURE__ */ z.strictObject({ endpoint_id: ConsoleId });
export const SecretRotateFields = /* @__PURE__ */ (() => z.strictObject({ grace_hours: z.int().min(0).max(168).optional() }))();
export const DeliveriesListFields = /* @__PURE__ */ (() =>
  z.strictObject({
    status: z.enum(DELIVERY_STATUSES).optional(),
    cursor: ConsoleCursor.optional(),
    count: z.int().min(1).max(CONSOLE_PAGES.deliveriesMax).optional(),
  }))();
export const EventReplayFields = /* @__PURE__ */ (() => z.strictObject({ event_id: ConsoleId, endpoint_id: ConsoleId.optional() }))();

export const ListEndpointsInput = /* @__PURE__ */ (() => scoped({}))();
export const CreateEndpointInput = /* @__PURE__ */ (() => scoped(EndpointCreateFields.shape))();
export const DeleteEndpointInput = /* @__PURE__ */ (() => scoped(EndpointDeleteFields.shape))();
export const RotateSecretInput = /* @__PURE__ */ (() => scoped(SecretRotateFields.shape))();
export const ListDeliveriesInput = /* @__PURE__ */ (() => scoped(DeliveriesListFields.shape))();
export const ReplayEventInput = /* @__PURE__ */ (() => scoped(EventReplayFields.shape))();

export const ListEndpointsAnswer = /* @__PURE__ */ (() => z.object({ endpoints: z.array(WebhookEndpoint) }))();
/** `secret`: the environment's signing secret, only when this call created it (shown once). */
export const CreateEndpointAnswer = /* @__PURE__ */ (() => z.object({ endpoint: WebhookEndpoint, created: z.boolean(), secret: z.string().nullable() }))();
export const DeleteEndpointAnswer = /* @__PURE__ */ (() => z.object({ deleted: z.boolean() }))();
export const RotateSecretAnswer = /* @__PURE__ */ (() =>
  z.object({
    secret: z.string(),
    previous_secret_expires_at: z.string(),
    signing_secrets: z.array(z.object({ last4: z.string(), expires_at: z.string().nullable() })),
  }))();
export const ListDeliveriesAnswer = /* @__PURE__ */ (() =>
  z.object({ deliveries: z.array(WebhookDelivery.extend({ replay: z.int().min(0) })), next_cursor: z.string().nullable() }))();
export const ReplayEventAnswer = /* @__PURE__ */ (() => z.object({ delivery_ids: z.array(z.string()) }))();

// ---------- request log, usage, items ----------

export const RequestSearchFields = /* @__PURE__ */ (() =>
  z.strictObject({
    request_id: z.string().regex(REQUEST_ID_PATTERN).optional(),
    route: z
      .string()
      .regex(/^[a-z0-9_.-]{1,64}$/)
      .optional(),
    status: z.union([z.int().min(100).max(599), z.enum(STATUS_CLASSES)]).optional(),
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
    cursor: ConsoleCursor.optional(),
    limit: z.int().min(1).max(CONSOLE_PAGES.requestSearchMax).optional(),
  }))();
export const RequestSearchInput = /* @__PURE__ */ (() => scoped(RequestSearchFields.shape))();
/** One API request as the request log keeps it: never a body, token, key or query string. */
const RequestLogEntryView = /* @__PURE__ */ (() =>
  z.object({
    application_id: z.string(),
    environment: EnvironmentInput,
    route: z.string(),
    method: z.enum(['GET', 'POST']),
    path: z.string(),
    status: z.int(),
    latency_ms: z.int().min(0),
    request_id: z.string(),
    key_display: z.string().nullable(),
    error_code: z.string().nullable(),
    item_id: z.string().nullable(),
    at: z.string(),
  }))();
export const RequestSearchAnswer = /* @__PURE__ */ (() => z.object({ requests: z.array(RequestLogEntryView), next_cursor: z.string().nullable() }))();

export const UsageFields = /* @__PURE__ */ (() => z.strictObject({ month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/).optional() }))();
export const UsageInput = /* @__PURE__ */ (() => scoped(UsageFields.shape))();
export const UsageAnswer = /* @__PURE__ */ (() =>
  z.object({
    application_id: z.string(),
    environment: EnvironmentInput,
    month: z.string(),
    plan: PlanInput,
    quota: z.object({ api: z.int().nullable(), ai: z.int().nullable() }),
    rate_limit_per_second: z.number(),
    burst: z.number(),
    used: z.object({ api: z.int().min(0), ai: z.int().min(0) }),
    /** Per day, oldest first; null for a day the request log no longer holds and that was never counted. */
    daily: z.array(z.object({ date: z.string(), api: z.int().min(0).nullable(), ai: z.int().min(0).nullable() })),
    connected_users: z.object({ count: z.int().min(0), limit: z.int().nullable() }),
    /** The usage.limit_approaching events of the month (80 and 95 per cent of a quota). */
    notices: z.array(
      z.object({ quota: z.enum(['api', 'ai']), threshold_percent: z.number(), used: z.number(), limit: z.number(), event_id: z.string(), at: z.string() }),
    ),
  }))();

export const ItemFields = /* @__PURE__ */ (() => z.strictObject({ item_id: z.string().min(1).max(LIMITS.idMaxLength) }))();
export const ItemInput = /* @__PURE__ */ (() => scoped(ItemFields.shape))();
export const ItemAnswer = /* @__PURE__ */ (() =>
  z.object({
    item: z.object({
      item_id: z.string(),
      status: ItemStatus,
      error: ItemError.nullable(),
      connector: z.string(),
      institution_id: z.string(),
      institution_name: z.string(),
      products: z.array(Product),
      last_successful_sync: z.string().nullable(),
      last_sync_error: z.object({ code: z.string(), message: z.string(), occurred_at: z.string() }).nullable(),
      transactions_update_status: TransactionsUpdateStatus,
      created_at: z.string(),
    }),
  }))();
export const ItemRefreshAnswer = /* @__PURE__ */ (() => z.object({ refreshing: z.boolean() }))();

// ---------- the audit log ----------

export const ListAuditInput = /* @__PURE__ */ (() =>
  z.strictObject({
    organization_id: OrganizationId,
    from: z.iso.datetime().optional(),
    to: z.iso.datetime().optional(),
    cursor: z.string().max(512).optional(),
    limit: z.number().int().min(1).max(CONSOLE_PAGES.auditMax).optional(),
  }))();
export const ListAuditAnswer = /* @__PURE__ */ (() =>
  z.object({
    entries: z.array(
      z.object({
        at: z.string(),
        request_id: z.string(),
        user_id: z.string(),
        email: z.string(),
        role: ConsoleRoleInput.nullable(),
        action: z.string(),
        target: z.record(z.string(), z.string()),
        outcome: z.enum(['allowed', 'denied']),
        reason: z.string().nullable(),
        client_address: z.string(),
        user_agent: z.string(),
        /** How many calls the entry stands for: a session's repeated denials of one action within a minute share one entry. */
        repeats: z.number().int().min(1),
        /** When the last of those repeats came; null for an entry that stands for one call. */
        last_at: z.string().nullable(),
      }),
    ),
    next_cursor: z.string().nullable(),
  }))();
