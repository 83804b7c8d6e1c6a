// The console API's answers as this app reads them (POST /console/api/..., snake_case JSON like the
// public API). The request shapes follow the route table's "Console API" section
// (docs/console.md); the answers are the use cases' (functions/app/console/*.ts).
import type { ConsoleRole } from '../../core/console-permissions';

export type { ConsoleRole };
export type Environment = 'test' | 'live';
export type IdentityKind = 'local' | 'cognito';

export interface ErrorEnvelope {
  error: { type: string; code: string; message: string; request_id: string };
}

export interface ConsoleUserView {
  user_id: string;
  email: string;
  name: string;
}

export interface OrganizationMembership {
  organization_id: string;
  name: string;
  role: ConsoleRole;
}

export interface SessionView {
  user: ConsoleUserView;
  organizations: OrganizationMembership[];
  csrf_token: string;
  identity: IdentityKind;
}

/** console.auth.login and console.auth.signup. */
export interface SignInAnswer {
  user: ConsoleUserView;
  csrf_token: string;
  /** console.auth.signup only: the organisation the invitation made the new user a member of (null when it could not). */
  organization?: { organization_id: string; name: string | null; role: ConsoleRole } | null;
}

/** console.orgs.create: the new organisation, the creator its owner. */
export interface OrganizationView {
  organization_id: string;
  name: string;
  role: ConsoleRole;
  created_at: string;
}

export interface MemberView {
  user_id: string;
  /** Null only when the user record is gone. */
  email: string | null;
  name: string | null;
  role: ConsoleRole;
  joined_at?: string;
}

/** An open invitation (console.invitations.list lists only pending, unexpired ones). */
export interface InvitationView {
  invitation_id: string;
  email: string;
  role: ConsoleRole;
  created_at: string;
  expires_at: string;
}

/** console.invitations.create: the invitation, and its link, shown this once. */
export interface CreatedInvitation extends InvitationView {
  invitation_url: string;
}

export interface AcceptedInvitation {
  organization_id: string;
  role: ConsoleRole;
  name: string | null;
}

export interface ApplicationView {
  application_id: string;
  name: string;
  plan: string;
  /** Whether the plan allows live keys. */
  live_access?: boolean;
  created_at: string;
}

export interface KeyView {
  key_id: string;
  environment: Environment;
  status: string;
  /** Prefix and last four characters, e.g. fc_sk_test_…abcd: never the key. */
  display: string;
  created_at: string;
  last_used_at: string | null;
}

/** console.keys.create: the key itself, shown once. */
export interface CreatedKey {
  key: string;
  key_id?: string;
  display?: string;
}

export interface WebhookEndpointView {
  endpoint_id: string;
  url: string;
  created_at: string;
}

export interface CreatedEndpoint {
  endpoint: WebhookEndpointView;
  created: boolean;
  /** The environment's signing secret, only when this call created it: shown once. */
  secret: string | null;
}

export interface RotatedSecret {
  secret: string;
  previous_secret_expires_at: string;
}

export interface WebhookAttemptView {
  attempt: number;
  at: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'dead_lettered' | 'cancelled';

export interface WebhookDeliveryView {
  delivery_id: string;
  event_id: string;
  event_type: string;
  endpoint_id: string;
  url: string;
  status: DeliveryStatus;
  attempts: WebhookAttemptView[];
  created_at: string;
  finished_at: string | null;
}

export interface DeliveryPage {
  deliveries: WebhookDeliveryView[];
  next_cursor: string | null;
}

export interface RequestLogEntryView {
  request_id: string;
  route: string;
  method: string;
  path: string;
  status: number;
  latency_ms: number;
  key_display: string | null;
  error_code: string | null;
  item_id: string | null;
  at: string;
}

export interface RequestPage {
  requests: RequestLogEntryView[];
  next_cursor: string | null;
}

/** A usage.limit_approaching event of the month. */
export interface UsageNotice {
  quota: 'api' | 'ai';
  /** 80 or 95 (per cent of the quota). */
  threshold_percent: number;
  used: number;
  limit: number;
  event_id: string;
  at: string;
}

export interface UsageView {
  month: string;
  plan: string;
  quota: { api: number | null; ai: number | null };
  used: { api: number; ai: number };
  rate_limit_per_second: number;
  burst?: number;
  /** Per day; null for a day the request log no longer holds and that was never counted. */
  daily: Array<{ date: string; api: number | null; ai: number | null }>;
  connected_users: { count: number; limit: number | null };
  notices: UsageNotice[];
}

export interface ItemView {
  item_id: string;
  status: string;
  /** The item's error while it needs the user (login_required, ...). */
  error?: { error_code?: string; error_message?: string; code?: string; message?: string } | null;
  connector: string;
  institution_id?: string | null;
  institution_name?: string | null;
  last_successful_sync: string | null;
  last_sync_error: { code: string; message: string; occurred_at?: string } | null;
  created_at: string;
  products?: string[];
  consent_expires_at?: string | null;
}

export interface AuditEntryView {
  at: string;
  user_id: string;
  email: string;
  role: ConsoleRole | null;
  action: string;
  target: Record<string, string> | string | null;
  outcome: 'allowed' | 'denied';
  /** Why a denied action was denied. */
  reason?: string | null;
  client_address: string;
  user_agent: string;
  request_id: string;
  /** How many calls this entry stands for (repeated denials of one action by one session within a minute share one entry). */
  repeats: number;
  /** When the last of those repeats came; null for an entry that stands for one call. */
  last_at: string | null;
}

export interface AuditPage {
  entries: AuditEntryView[];
  next_cursor: string | null;
}
