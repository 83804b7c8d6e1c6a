// The console's own API over real HTTP against the local stack: sign-in as the local first owner,
// members of every role through invitations (the owner invites, each signs up with the link), then
// THE ROLE MATRIX: every console action of the permission table's matrix (ROLE_MATRIX, with the
// targets that change the answer) called by every role and by a signed-in non-member, each in a fresh
// organisation: allowed calls answer 200, denied ones 403 role_forbidden with one `denied` audit row
// and nothing else changed, a non-member 404 with nothing changed at all. Then the edge itself: no
// session cookie (401), a missing or wrong CSRF token and cross-site calls (403), the cookie's
// attributes, a key shown once, the request id of an API error envelope found in the request log,
// usage notices, and the console kept out of the request log and the public documents. And what an
// outside review's attack over HTTP found: invitations outliving their creator, floods of calls and
// of refusals, a webhook URL's token in the audit log and endpoint lists, `/console//`.
import { PutCommand, QueryCommand, ScanCommand, UpdateCommand } from '../../functions/platform/aws/dynamodb';
import { randomUUID } from 'node:crypto';
import type { ConsoleActor } from '../../functions/app/console/actor';
import { createApplication } from '../../functions/app/console/applications';
import { acceptInvitation, createInvitation } from '../../functions/app/console/invitations';
import { createKey } from '../../functions/app/console/keys';
import { createOrganization } from '../../functions/app/console/organizations';
import { SESSION_REQUEST_LIMITS } from '../../functions/app/console/session';
import { createWebhookEndpoint } from '../../functions/app/console/webhooks';
import { fireWebhook } from '../../functions/app/item-state';
import { PLANS } from '../../functions/contracts/limits';
import { ROUTES } from '../../functions/contracts/routes';
import { sha256Hex } from '../../functions/core/api-keys';
import {
  CONSOLE_ACTIONS,
  CONSOLE_ROLES,
  requiredRole,
  ROLE_MATRIX,
  type ConsoleRole,
  type ConsoleTarget,
  type MemberActionId,
} from '../../functions/core/console-permissions';
import { createUser, userByEmail, type UserRecord } from '../../functions/data/console-sessions-repo';
import { getItem } from '../../functions/data/items-repo';
import { keys, usageAttribute } from '../../functions/data/keys';
import { ensureConsoleOwner } from '../../functions/platform/local/console-owner';
import type { Json } from '../support/json';
import { createTestItem } from '../support/embedded';
import { makeKey, startTestStack, type CallResult, type TestStack } from '../support/stack';

const testKey = makeKey('test');
const liveKey = makeKey('live');
let stack: TestStack;

// ---------- talking to the console as its web app does ----------

interface Session {
  cookie: string;
  csrf: string;
}

interface ConsoleAnswer extends CallResult {
  setCookies: string[];
}

/** `console.keys.create` -> /console/api/keys/create: the web app's rule (functions/console-ui/browser/api.ts). */
const pathOf = (routeId: string) => `/console/api/${routeId.replace(/^console\./, '').split('.').join('/')}`;

async function consoleCall(routeId: string, body: unknown, session: Session | null, headers: Record<string, string> = {}): Promise<ConsoleAnswer> {
  const sent: Record<string, string> = { ...headers };
  if (session) {
    sent.Cookie ??= `fc_console_session=${session.cookie}`;
    if (session.csrf) sent['X-CSRF-Token'] ??= session.csrf;
  }
  const res = await stack.call(pathOf(routeId), { key: null, body, headers: sent });
  return { ...res, setCookies: res.headers.getSetCookie() };
}

/** The session cookie's value and attributes as a Set-Cookie header gives them. */
function sessionCookieOf(answer: ConsoleAnswer): { value: string; attributes: string[] } {
  const header = answer.setCookies.find((c) => c.startsWith('fc_console_session='));
  if (!header) throw new Error(`no session cookie in ${JSON.stringify(answer.setCookies)} (${answer.status}: ${answer.text.slice(0, 200)})`);
  const [pair, ...attributes] = header.split(';').map((part) => part.trim());
  return { value: pair.slice('fc_console_session='.length), attributes };
}

async function signIn(email: string, password: string): Promise<Session> {
  const res = await consoleCall('console.auth.login', { email, password }, null);
  expect([res.status, res.text.slice(0, 200)]).toEqual([200, res.text.slice(0, 200)]);
  return { cookie: sessionCookieOf(res).value, csrf: res.json.csrf_token };
}

// ---------- the people ----------

type Caller = ConsoleRole | 'stranger';
const CALLERS: readonly Caller[] = [...CONSOLE_ROLES, 'stranger'];

interface Person {
  user: UserRecord;
  session: Session;
}
const people = {} as Record<Caller, Person>;
let localOrganizationId: string;
let seededApplicationId: string;

/** A fresh actor for the use cases this test calls directly to set a scene (not through HTTP). */
function actorOf(user: UserRecord): ConsoleActor {
  return {
    user: { userId: user.userId, email: user.email, name: user.name },
    sessionHash: 'scene',
    clientAddress: '127.0.0.1',
    userAgent: 'console-api.test',
    requestId: `req_${randomUUID()}`,
  };
}

const tokenOf = (invitationUrl: string) => invitationUrl.slice(invitationUrl.lastIndexOf('/') + 1);
let counter = 0;
const uniqueEmail = (label: string) => `${label}-${(counter += 1)}-${randomUUID().slice(0, 6)}@example.com`;

beforeAll(async () => {
  stack = await startTestStack([{ application: 'Acme', plan: 'startup', keys: [testKey, liveKey] }]);
  seededApplicationId = stack.keys[0].applicationId;
  const owner = await ensureConsoleOwner(stack.deps, { applicationIds: stack.keys.map((k) => k.applicationId) });
  localOrganizationId = owner.organizationId;
  const ownerSession = await signIn(owner.email, owner.password!);
  people.owner = { user: (await userByEmail(stack.deps, owner.email))!, session: ownerSession };
  // Every other member comes in as the web app brings them: an invitation link, then sign-up with it.
  for (const caller of ['admin', 'developer', 'viewer', 'stranger'] as const) {
    const email = `${caller}@example.com`;
    const invited = await consoleCall('console.invitations.create', { organization_id: localOrganizationId, email, role: caller === 'stranger' ? 'viewer' : caller }, ownerSession);
    expect([invited.status, invited.text.slice(0, 200)]).toEqual([200, invited.text.slice(0, 200)]);
    const signedUp = await consoleCall(
      'console.auth.signup',
      { email, password: `${caller}-password-long-enough`, name: caller, invitation_token: tokenOf(invited.json.invitation_url) },
      null,
    );
    expect([signedUp.status, signedUp.json.organization?.role]).toEqual([200, caller === 'stranger' ? 'viewer' : caller]);
    people[caller] = { user: (await userByEmail(stack.deps, email))!, session: { cookie: sessionCookieOf(signedUp).value, csrf: signedUp.json.csrf_token } };
  }
}, 60_000);
afterAll(() => stack.stop());

// ---------- scenes: a fresh organisation per call ----------

interface Scene {
  organizationId: string;
  name: string;
  /** An owner besides the owner who calls, so any one owner may leave or be demoted. */
  secondOwner: UserRecord;
  applicationId?: string;
  itemId?: string;
}

async function join(organizationId: string, user: UserRecord, role: ConsoleRole): Promise<void> {
  const invitation = await createInvitation(stack.deps, actorOf(people.owner.user), { organization_id: organizationId, email: user.email, role }, stack.baseUrl);
  await acceptInvitation(stack.deps, actorOf(user), { token: tokenOf(invitation.invitation_url) });
}

/** A member who is none of the callers, with `role`. */
async function extraMember(organizationId: string, role: ConsoleRole): Promise<UserRecord> {
  const user = await createUser(stack.deps, { email: uniqueEmail(`extra-${role}`), name: `Extra ${role}` });
  await join(organizationId, user, role);
  return user;
}

/** An organisation where the owner, admin, developer and viewer callers have their roles (the stranger none). */
async function freshScene(): Promise<Scene> {
  const name = `Matrix ${(counter += 1)}`;
  const org = await createOrganization(stack.deps, actorOf(people.owner.user), { name });
  for (const role of ['admin', 'developer', 'viewer'] as const) await join(org.organization_id, people[role].user, role);
  return { organizationId: org.organization_id, name, secondOwner: await extraMember(org.organization_id, 'owner') };
}

async function applicationOf(scene: Scene): Promise<string> {
  // Enterprise: live keys are allowed, so the live cases are decided by role alone.
  scene.applicationId ??= (await createApplication(stack.deps, actorOf(people.owner.user), { organization_id: scene.organizationId, name: 'Matrix app', plan: 'enterprise' })).application_id;
  return scene.applicationId;
}

async function scopeOf(scene: Scene) {
  return { application_id: await applicationOf(scene), environment: 'test' as const };
}

async function itemOf(scene: Scene): Promise<string> {
  if (!scene.itemId) {
    scene.itemId = `item_${randomUUID().replaceAll('-', '')}`;
    await createTestItem(stack.deps, scene.itemId, { applicationId: await applicationOf(scene) });
  }
  return scene.itemId;
}

/** The member a target names: the second owner for `owner` (never the caller), else a fresh member with that role. */
async function memberWith(scene: Scene, role: ConsoleRole | undefined): Promise<UserRecord> {
  if (!role) throw new Error('the target names no member role');
  return role === 'owner' ? scene.secondOwner : extraMember(scene.organizationId, role);
}

/** The body of each action, its target (ids that must exist) set up in the scene first. */
const BODIES: Record<MemberActionId, (scene: Scene, target: ConsoleTarget, caller: UserRecord) => Promise<Record<string, unknown>>> = {
  'console.orgs.delete': async (s) => ({ organization_id: s.organizationId, confirm_name: s.name }),
  'console.members.list': async (s) => ({ organization_id: s.organizationId }),
  'console.members.update': async (s, t) => ({ organization_id: s.organizationId, user_id: (await memberWith(s, t.memberRole)).userId, role: t.grantedRole }),
  'console.members.remove': async (s, t, caller) => ({ organization_id: s.organizationId, user_id: t.self ? caller.userId : (await memberWith(s, t.memberRole)).userId }),
  'console.invitations.list': async (s) => ({ organization_id: s.organizationId }),
  'console.invitations.create': async (s, t) => ({ organization_id: s.organizationId, email: uniqueEmail('invitee'), role: t.grantedRole }),
  'console.invitations.revoke': async (s, t) => {
    const invitation = await createInvitation(stack.deps, actorOf(people.owner.user), { organization_id: s.organizationId, email: uniqueEmail('pending'), role: t.grantedRole! }, stack.baseUrl);
    return { organization_id: s.organizationId, invitation_id: invitation.invitation_id };
  },
  'console.applications.list': async (s) => ({ organization_id: s.organizationId }),
  'console.applications.create': async (s) => ({ organization_id: s.organizationId, name: 'Another app' }),
  'console.audit.list': async (s) => ({ organization_id: s.organizationId }),
  'console.applications.update': async (s) => ({ application_id: await applicationOf(s), name: 'Renamed app' }),
  'console.keys.list': async (s) => ({ application_id: await applicationOf(s) }),
  'console.keys.create': async (s, t) => ({ application_id: await applicationOf(s), environment: t.environment }),
  'console.keys.revoke': async (s, t) => {
    const key = await createKey(stack.deps, actorOf(people.owner.user), { application_id: await applicationOf(s), environment: t.environment! });
    return { application_id: s.applicationId, key_id: key.key_id };
  },
  'console.webhooks.endpoints.list': async (s) => scopeOf(s),
  'console.webhooks.endpoints.create': async (s) => ({ ...(await scopeOf(s)), url: 'http://127.0.0.1:9/matrix' }),
  'console.webhooks.endpoints.delete': async (s) => {
    const scope = await scopeOf(s);
    const created = await createWebhookEndpoint(stack.deps, { applicationId: scope.application_id, environment: 'test' }, { url: 'http://127.0.0.1:9/to-delete' });
    return { ...scope, endpoint_id: created.endpoint.endpoint_id };
  },
  'console.webhooks.secret.rotate': async (s) => ({ ...(await scopeOf(s)), grace_hours: 1 }),
  'console.webhooks.deliveries.list': async (s) => scopeOf(s),
  'console.webhooks.events.replay': async (s) => {
    const item = (await getItem(stack.deps, await itemOf(s)))!;
    const { event_id } = await fireWebhook(stack.deps, item, 'item.error');
    return { ...(await scopeOf(s)), event_id };
  },
  'console.requests.search': async (s) => scopeOf(s),
  'console.usage.get': async (s) => scopeOf(s),
  'console.items.get': async (s) => ({ ...(await scopeOf(s)), item_id: await itemOf(s) }),
  'console.items.refresh': async (s) => ({ ...(await scopeOf(s)), item_id: await itemOf(s) }),
};

/** Every row, as sorted JSON lines, but the ones a refused call may write by design. */
async function tableState(options: { withAudit: boolean }): Promise<string[]> {
  await stack.background.idle();
  const rows: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await stack.deps.ddb.send(new ScanCommand({ TableName: stack.deps.config.tableName, ExclusiveStartKey: start }));
    for (const row of page.Items ?? []) {
      const pk = String(row.pk);
      // A signed-in request may move its session's idle deadline; a member's refusal is audited.
      if (pk.startsWith('SESSION#') || (!options.withAudit && pk.startsWith('AUDIT#'))) continue;
      rows.push(JSON.stringify(Object.keys(row).sort().map((k) => [k, row[k]])));
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return rows.sort();
}

async function auditOf(organizationId: string): Promise<Json[]> {
  const res = await stack.deps.ddb.send(
    new QueryCommand({ TableName: stack.deps.config.tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `AUDIT#${organizationId}` } }),
  );
  return res.Items ?? [];
}

describe('the role matrix over HTTP: every console action x every role and a non-member, against the permission table', () => {
  const cases = ROLE_MATRIX.flatMap((c) => CALLERS.map((caller) => [c.label, caller, c] as const));

  it('covers every member action of the table, and every console route is one the web app can reach', () => {
    expect(new Set(ROLE_MATRIX.map((c) => c.action))).toEqual(new Set(Object.keys(BODIES)));
    const consoleApi = ROUTES.filter((r) => r.console && r.path.startsWith('/console/api/'));
    expect(consoleApi.filter((r) => r.path !== pathOf(r.id)).map((r) => r.id)).toEqual([]);
    for (const action of Object.keys(CONSOLE_ACTIONS)) expect(ROUTES.some((r) => r.id === action)).toBe(true);
  });

  it.each(cases)('%s as %s', async (_label, caller, matrixCase) => {
    const scene = await freshScene();
    const body = await BODIES[matrixCase.action](scene, matrixCase.target, people[caller].user);
    const member = caller !== 'stranger';
    const allowed = member && matrixCase.allowed[caller];
    const before = allowed ? [] : await tableState({ withAudit: !member });
    const auditBefore = (await auditOf(scene.organizationId)).length;
    const res = await consoleCall(matrixCase.action, body, people[caller].session);
    if (allowed) {
      expect([res.status, res.text.slice(0, 300)]).toEqual([200, res.text.slice(0, 300)]);
      return;
    }
    if (member) {
      // The refusal names the role the table asks for this target.
      const needed = `needs the ${requiredRole(matrixCase.action, matrixCase.target)} role`;
      expect({ status: res.status, code: res.json.error?.code, namesRole: String(res.json.error?.message).includes(needed) }).toEqual({ status: 403, code: 'role_forbidden', namesRole: true });
      const added = (await auditOf(scene.organizationId)).slice(auditBefore);
      expect(added.map((row) => [row.action, row.outcome, row.user_id])).toEqual([[matrixCase.action, 'denied', people[caller].user.userId]]);
    } else {
      const scope = CONSOLE_ACTIONS[matrixCase.action].scope;
      expect({ status: res.status, code: res.json.error?.code }).toEqual({ status: 404, code: scope === 'application' ? 'application_not_found' : 'organization_not_found' });
    }
    expect(await tableState({ withAudit: !member })).toEqual(before);
  });
});

describe('the session actions (no role needed)', () => {
  it('console.session names the user, their organisations and roles, and the CSRF token (without needing it)', async () => {
    const res = await consoleCall('console.session', {}, { ...people.developer.session, csrf: '' }, {});
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ user: { email: 'developer@example.com' }, csrf_token: people.developer.session.csrf, identity: 'local' });
    expect(res.json.organizations).toEqual(expect.arrayContaining([expect.objectContaining({ organization_id: localOrganizationId, role: 'developer' })]));
  });

  it('console.orgs.create makes the caller the owner; console.invitations.accept joins with the invited role', async () => {
    const created = await consoleCall('console.orgs.create', { name: 'Viewer Co' }, people.viewer.session);
    expect([created.status, created.json.role]).toEqual([200, 'owner']);
    const invited = await consoleCall('console.invitations.create', { organization_id: created.json.organization_id, email: 'developer@example.com', role: 'admin' }, people.viewer.session);
    expect(invited.status).toBe(200);
    const wrongPerson = await consoleCall('console.invitations.accept', { token: tokenOf(invited.json.invitation_url) }, people.admin.session);
    expect([wrongPerson.status, wrongPerson.json.error.code]).toEqual([403, 'invitation_email_mismatch']);
    const accepted = await consoleCall('console.invitations.accept', { token: tokenOf(invited.json.invitation_url) }, people.developer.session);
    expect([accepted.status, accepted.json.role, accepted.json.joined]).toEqual([200, 'admin', true]);
    const again = await consoleCall('console.invitations.accept', { token: tokenOf(invited.json.invitation_url) }, people.developer.session);
    expect([again.status, again.json.error.code]).toEqual([410, 'invitation_expired']);
  });
});

describe('the edge: session, CSRF, same origin', () => {
  it('answers 401 session_required without a session cookie, or with one whose session is unknown (and clears it)', async () => {
    const none = await consoleCall('console.members.list', { organization_id: localOrganizationId }, null);
    expect([none.status, none.json.error.code, none.json.error.type]).toEqual([401, 'session_required', 'authentication_error']);
    const unknown = await consoleCall('console.members.list', { organization_id: localOrganizationId }, { cookie: 'A'.repeat(43), csrf: people.owner.session.csrf });
    expect([unknown.status, unknown.json.error.code]).toEqual([401, 'session_required']);
    expect(sessionCookieOf(unknown).attributes).toContain('Max-Age=0');
    // An API key is no way into the console.
    const keyed = await stack.call(pathOf('console.session'), { key: testKey, body: {} });
    expect([keyed.status, keyed.json.error.code]).toEqual([401, 'session_required']);
  });

  it('answers 403 csrf_failed to a missing or wrong X-CSRF-Token, and changes nothing', async () => {
    const before = await tableState({ withAudit: true });
    const body = { organization_id: localOrganizationId, email: 'csrf@example.com', role: 'viewer' };
    const missing = await consoleCall('console.invitations.create', body, { ...people.owner.session, csrf: '' });
    const wrong = await consoleCall('console.invitations.create', body, { ...people.owner.session, csrf: people.admin.session.csrf });
    const read = await consoleCall('console.members.list', { organization_id: localOrganizationId }, { ...people.owner.session, csrf: 'x' });
    for (const res of [missing, wrong, read]) expect([res.status, res.json.error.code]).toEqual([403, 'csrf_failed']);
    expect(await tableState({ withAudit: true })).toEqual(before);
  });

  it('refuses console POSTs from another site (Origin, Sec-Fetch-Site), even with a valid session and token, and sign-ins too', async () => {
    const body = { organization_id: localOrganizationId };
    const fromElsewhere = await consoleCall('console.members.list', body, people.owner.session, { Origin: 'https://evil.example' });
    const crossSite = await consoleCall('console.members.list', body, people.owner.session, { 'Sec-Fetch-Site': 'cross-site' });
    const nullOrigin = await consoleCall('console.members.list', body, people.owner.session, { Origin: 'null' });
    const signInFromElsewhere = await consoleCall('console.auth.login', { email: 'owner@localhost', password: 'whatever-it-is' }, null, { Origin: 'https://evil.example' });
    for (const res of [fromElsewhere, crossSite, nullOrigin, signInFromElsewhere]) expect([res.status, res.json.error.code]).toEqual([403, 'csrf_failed']);
    // The console's own page: same origin.
    const own = await consoleCall('console.members.list', body, people.owner.session, { Origin: stack.baseUrl, 'Sec-Fetch-Site': 'same-origin' });
    expect(own.status).toBe(200);
  });

  it('sets the session cookie HttpOnly, SameSite=Strict, on /console, for the absolute lifetime (no Secure on http loopback); sign-out clears it and ends the session', async () => {
    const email = 'cookie@example.com';
    const invited = await consoleCall('console.invitations.create', { organization_id: localOrganizationId, email, role: 'viewer' }, people.owner.session);
    const signedUp = await consoleCall('console.auth.signup', { email, password: 'cookie-password-long', name: 'Cookie', invitation_token: tokenOf(invited.json.invitation_url) }, null);
    expect(signedUp.status).toBe(200);
    const login = await consoleCall('console.auth.login', { email, password: 'cookie-password-long' }, null);
    const cookie = sessionCookieOf(login);
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie.attributes.sort()).toEqual(['HttpOnly', `Max-Age=${7 * 24 * 3600}`, 'Path=/console', 'SameSite=Strict'].sort());
    // The cookie is the session's only carrier: it never appears in a body.
    expect(login.text).not.toContain(cookie.value);
    const session = { cookie: cookie.value, csrf: login.json.csrf_token };
    const out = await consoleCall('console.auth.logout', {}, session);
    expect(out.status).toBe(200);
    expect(sessionCookieOf(out).attributes).toEqual(expect.arrayContaining(['Max-Age=0', 'Path=/console', 'HttpOnly', 'SameSite=Strict']));
    const after = await consoleCall('console.session', {}, session);
    expect([after.status, after.json.error.code]).toEqual([401, 'session_required']);
  });

  it('answers a wrong password and an unknown address alike (401), and refuses password sign-up without an open invitation', async () => {
    const wrong = await consoleCall('console.auth.login', { email: 'admin@example.com', password: 'not-the-password' }, null);
    const unknown = await consoleCall('console.auth.login', { email: 'nobody@example.com', password: 'not-the-password' }, null);
    expect([wrong.status, wrong.json.error.code, wrong.json.error.message]).toEqual([401, 'console_invalid_credentials', unknown.json.error.message]);
    expect(wrong.setCookies).toEqual([]);
    const signUp = await consoleCall('console.auth.signup', { email: 'x@example.com', password: 'long-enough-password', name: 'X', invitation_token: `fc_inv_${'A'.repeat(43)}` }, null);
    expect([signUp.status, signUp.json.error.code]).toEqual([410, 'invitation_expired']);
  });

  it('serves the console page at /console/ (and sends /console there), and refuses Cognito sign-in on a password deployment', async () => {
    const bare = await fetch(`${stack.baseUrl}/console`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([308, 'console/']);
    const page = await stack.call('/console/', { method: 'GET', key: null });
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.text).toContain('<meta name="fc-console-identity" content="local">');
    const start = await stack.call('/console/api/auth/start', { method: 'GET', key: null });
    expect([start.status, start.json.error.code]).toEqual([400, 'sign_in_method_unavailable']);
  });
});

describe('what an outside attack over HTTP found: invitations, floods, URL tokens, odd paths', () => {
  it("stops an invitation whose creator is removed: it is no longer listed, and signing up with it joins nobody (410)", async () => {
    const scene = await freshScene();
    const email = uniqueEmail('joiner');
    const invited = await consoleCall('console.invitations.create', { organization_id: scene.organizationId, email, role: 'admin' }, people.admin.session);
    expect(invited.status).toBe(200);
    const removed = await consoleCall('console.members.remove', { organization_id: scene.organizationId, user_id: people.admin.user.userId }, people.owner.session);
    expect(removed.status).toBe(200);
    const listed = await consoleCall('console.invitations.list', { organization_id: scene.organizationId }, people.owner.session);
    expect(listed.json.invitations.map((i: Json) => i.invitation_id)).not.toContain(invited.json.invitation_id);
    const signedUp = await consoleCall('console.auth.signup', { email, password: 'joiner-password-long', name: 'Joiner', invitation_token: tokenOf(invited.json.invitation_url) }, null);
    expect([signedUp.status, signedUp.json.error?.code]).toEqual([410, 'invitation_expired']);
    const members = await consoleCall('console.members.list', { organization_id: scene.organizationId }, people.owner.session);
    expect(members.json.members.map((m: Json) => m.email)).not.toContain(email);
  });

  it('answers a session that floods the console 429 with Retry-After (the session gate counts every call)', async () => {
    // A session of its own, so that the others are not slowed down.
    const flooding = await signIn('viewer@example.com', 'viewer-password-long-enough');
    // The window counters of the next two minutes, full already: the refusal does not depend on how fast this machine is.
    const now = stack.deps.clock.now();
    const { windowMs, perWindow } = SESSION_REQUEST_LIMITS;
    for (let start = now - (now % windowMs); start < now + 120_000; start += windowMs) {
      await stack.deps.ddb.send(new PutCommand({ TableName: stack.deps.config.tableName, Item: { ...keys.consoleSessionWindow(sha256Hex(flooding.cookie), start), requests: perWindow } }));
    }
    const refused = await consoleCall('console.members.list', { organization_id: localOrganizationId }, flooding);
    expect([refused.status, refused.json.error?.code]).toEqual([429, 'rate_limit_exceeded']);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(windowMs / 1000);
    // Every other session goes on.
    expect((await consoleCall('console.members.list', { organization_id: localOrganizationId }, people.viewer.session)).status).toBe(200);
  });

  it("writes one audit row for a session's repeated refusals of one action, counting them", async () => {
    const scene = await freshScene();
    const body = { organization_id: scene.organizationId };
    for (let i = 0; i < 20; i += 1) expect((await consoleCall('console.audit.list', body, people.viewer.session)).status).toBe(403);
    const denied = (await auditOf(scene.organizationId)).filter((row) => row.outcome === 'denied');
    // One row, or two when the calls straddled a minute: every refusal counted, none lost.
    expect(denied.length).toBeLessThanOrEqual(2);
    expect(denied.reduce((sum, row) => sum + Number(row.repeats ?? 1), 0)).toBe(20);
    const listed = await consoleCall('console.audit.list', body, people.owner.session);
    expect(listed.json.entries.filter((e: Json) => e.outcome === 'denied').reduce((sum: number, e: Json) => sum + e.repeats, 0)).toBe(20);
  });

  it("keeps a webhook URL's query out of the audit log (which names the endpoint instead) and masks it in every endpoint list", async () => {
    const scene = await freshScene();
    const scope = await scopeOf(scene);
    const url = 'http://127.0.0.1:9/receiver?token=receiver-s3cret';
    const created = await consoleCall('console.webhooks.endpoints.create', { ...scope, url }, people.developer.session);
    expect(created.status).toBe(200);
    const endpointId: string = created.json.endpoint.endpoint_id;
    for (const caller of ['viewer', 'developer', 'owner'] as const) {
      const listed = await consoleCall('console.webhooks.endpoints.list', scope, people[caller].session);
      expect(listed.json.endpoints).toEqual([expect.objectContaining({ endpoint_id: endpointId, url: 'http://127.0.0.1:9/receiver?\u2026' })]);
    }
    const audit = await consoleCall('console.audit.list', { organization_id: scene.organizationId }, people.owner.session);
    expect(audit.json.entries.find((e: Json) => e.action === 'console.webhooks.endpoints.create')?.target).toEqual({
      organization_id: scene.organizationId,
      application_id: scope.application_id,
      environment: 'test',
      url: 'http://127.0.0.1:9/receiver',
      endpoint_id: endpointId,
    });
    expect(JSON.stringify(await auditOf(scene.organizationId))).not.toContain('receiver-s3cret');
  });

  it('answers /console// (no route, whatever the method) 404 route_not_found, as API Gateway would, not 405', async () => {
    for (const method of ['GET', 'POST']) {
      const res = await stack.call('/console//', { method, key: null });
      expect([method, res.status, res.json.error?.code]).toEqual([method, 404, 'route_not_found']);
    }
    // A wrong method on a route's own path is still 405.
    const wrongMethod = await stack.call('/console/', { method: 'POST', key: null });
    expect([wrongMethod.status, wrongMethod.json.error?.code]).toEqual([405, 'method_not_allowed']);
  });
});

describe('keys, the request log and usage, through the console', () => {
  it('shows a new key once: the create answer has it, the list never does, and the key works against the API', async () => {
    const created = await consoleCall('console.keys.create', { application_id: seededApplicationId, environment: 'test' }, people.developer.session);
    expect(created.status).toBe(200);
    const key: string = created.json.key;
    expect(key).toMatch(/^fc_sk_test_/);
    expect(created.json.display).toBe(`fc_sk_test_\u2026${key.slice(-4)}`);
    const listed = await consoleCall('console.keys.list', { application_id: seededApplicationId }, people.viewer.session);
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(key);
    expect(listed.json.keys.find((k: Json) => k.key_id === created.json.key_id)).toMatchObject({ status: 'active', display: created.json.display });
    // It replaced the seeded test key (one active key per environment).
    expect(created.json.replaced_key_ids).toHaveLength(1);
    expect((await stack.call('/v1/categories/get', { key, body: {} })).status).toBe(200);
    expect((await stack.call('/v1/categories/get', { key: testKey, body: {} })).json.error.code).toBe('revoked_api_key');
    const again = await consoleCall('console.keys.list', { application_id: seededApplicationId }, people.owner.session);
    expect(again.text).not.toContain(key);
  });

  it('finds the request id of an API error envelope in the request log (and only API requests are logged)', async () => {
    const failed = await stack.call('/v1/items/get', { key: liveKey, body: { access_token: 'fc_at_nosuchtoken' } });
    expect(failed.status).toBe(400);
    const requestId: string = failed.json.error.request_id;
    const found = await consoleCall('console.requests.search', { application_id: seededApplicationId, environment: 'live', request_id: requestId }, people.developer.session);
    expect(found.status).toBe(200);
    expect(found.json.requests).toEqual([
      {
        application_id: seededApplicationId,
        environment: 'live',
        route: 'items.get',
        method: 'POST',
        path: '/v1/items/get',
        status: 400,
        latency_ms: expect.any(Number),
        request_id: requestId,
        key_display: `fc_sk_live_\u2026${liveKey.slice(-4)}`,
        error_code: 'invalid_access_token',
        item_id: null,
        at: expect.any(String),
      },
    ]);
    // Never the body, the token or the key.
    expect(found.text).not.toContain('fc_at_nosuchtoken');
    expect(found.text).not.toContain(liveKey);
    // The other environment does not see it.
    const otherEnvironment = await consoleCall('console.requests.search', { application_id: seededApplicationId, environment: 'test', request_id: requestId }, people.developer.session);
    expect(otherEnvironment.json.requests).toEqual([]);
    // By time range and status class too.
    const recent = await consoleCall('console.requests.search', { application_id: seededApplicationId, environment: 'live', status: '4xx' }, people.developer.session);
    expect(recent.json.requests.map((r: Json) => r.request_id)).toContain(requestId);
    // The console's own calls (hundreds by now) are never in the log.
    const logged: Json[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await stack.deps.ddb.send(
        new ScanCommand({ TableName: stack.deps.config.tableName, FilterExpression: 'begins_with(pk, :log)', ExpressionAttributeValues: { ':log': 'REQLOG#' }, ExclusiveStartKey: start }),
      );
      logged.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    expect(logged.map((row) => row.route)).toEqual(expect.arrayContaining(['items.get', 'categories.get']));
    expect(logged.filter((row) => !String(row.route).match(/^[a-z]/) || String(row.route).startsWith('console.'))).toEqual([]);
  });

  it('shows the 80 % usage notice on the usage page once the API quota crosses it', async () => {
    const quota = PLANS.startup.apiPerMonth;
    await stack.deps.ddb.send(
      new UpdateCommand({
        TableName: stack.deps.config.tableName,
        Key: keys.apiKey(sha256Hex(liveKey)),
        UpdateExpression: 'SET #u = :n',
        ExpressionAttributeNames: { '#u': usageAttribute('api', new Date()) },
        ExpressionAttributeValues: { ':n': quota * 0.8 - 1 },
      }),
    );
    expect((await stack.call('/v1/categories/get', { key: liveKey, body: {} })).status).toBe(200);
    await stack.background.idle();
    const usage = await consoleCall('console.usage.get', { application_id: seededApplicationId, environment: 'live' }, people.viewer.session);
    expect(usage.status).toBe(200);
    expect(usage.json.notices).toEqual([expect.objectContaining({ quota: 'api', threshold_percent: 80, used: quota * 0.8, limit: quota, event_id: expect.stringMatching(/^evt_/) })]);
    expect(usage.json.quota).toEqual({ api: quota, ai: PLANS.startup.aiPerMonth });
    expect(usage.json.used.api).toBeGreaterThanOrEqual(quota * 0.8);
  });
});
