// The hosted Link page's script (no framework, no external assets), bundled into the page by
// bin/build-link-ui.ts and run under the page's nonce'd CSP. It reads its configuration (the link
// token, the described session, whether the SDK embeds it and the parent's origin) from the JSON
// block the server rendered, then drives the flow against the page's own API (/link/api/...).
//
// Screens: CONSENT -> SELECT_INSTITUTION (skipped when an institution is fixed) -> the consent step
// of the institution's connector (/link/api/method): CREDENTIALS (-> MFA when asked), OAUTH (off to
// the provider and back to /link/oauth/callback, which runs this script in `oauth_return` mode),
// API_KEY, ADDRESS, or UPLOAD (a statement file; also offered as an alternative when the
// institution's chain lists the file importer) -> CONNECTED -> redirect / postMessage / DONE.
// Non-retryable errors end on ERROR with an Exit button; retryable ones (a refused key, a file the
// importer cannot read, with the line) show inline (role="alert").
import type { ErrorCode, ErrorEnvelope, ErrorType } from '../../../contracts/errors';
import {
  isSdkCloseMessage,
  LINK_CONFIG_ELEMENT_ID,
  LINK_OAUTH_RESUME_KEY,
  type InstitutionTypeName,
  type InstitutionView,
  type LinkConnectedStep,
  type LinkConsentMethod,
  type LinkExitMetadata,
  type LinkOauthResume,
  type LinkOauthReturn,
  type LinkOauthReturnConfig,
  type LinkPageConfig,
  type LinkPageMessage,
  type LinkPageSession,
  type LinkStepResult,
  type LinkView,
  type PublicLinkError,
} from '../protocol';
import { FATAL_ERRORS, PRODUCT_LABELS, TYPE_LABELS, type FatalErrorCode } from './copy';
import { alertBox, avatar, button, el, field, heading, icon, listText, para, selectField } from './dom';

/** An error the page's API answered (the contract's envelope). */
interface ContractError {
  type: ErrorType;
  code: ErrorCode;
  message: string;
  request_id?: string;
}
/** The page's own error when the API could not be reached at all. */
interface NetworkError {
  type: 'network_error';
  code: 'network_error';
  message: string;
}
type LinkApiError = ContractError | NetworkError;
type FatalError = ContractError & { code: FatalErrorCode };

interface LinkApiCalls {
  institutions: {
    body: { query: string; types?: InstitutionTypeName[]; country_codes?: string[] };
    answer: { institutions: InstitutionView[] };
  };
  connect: { body: { institution_id: string; username: string; password: string }; answer: LinkStepResult };
  mfa: { body: { code: string }; answer: LinkStepResult };
  session: { body: Record<string, never>; answer: LinkPageSession };
  method: { body: { institution_id: string }; answer: LinkConsentMethod };
  'oauth/start': { body: { institution_id: string }; answer: { authorize_url: string } };
  'oauth/complete': { body: { state: string; code?: string; error?: string }; answer: LinkStepResult };
  consent: { body: { institution_id: string; api_key?: string; api_secret?: string; address?: string }; answer: LinkStepResult };
  upload: { body: { institution_id: string; file_name: string; file_base64: string }; answer: LinkStepResult };
}
type ApiOutcome<T> = { ok: true; value: T } | { ok: false; error: LinkApiError };

/** The institution being connected: from the session, the search results, or the connection. */
type ChosenInstitution = Pick<InstitutionView, 'institution_id' | 'name'> & Partial<Pick<InstitutionView, 'primary_color'>>;

const INTERNAL_ERROR: ContractError = {
  type: 'api_error',
  code: 'internal_error',
  message: 'Something went wrong on our side. Try again in a moment.',
};
const NETWORK_ERROR: NetworkError = {
  type: 'network_error',
  code: 'network_error',
  message: 'We couldn\u2019t reach Fincore. Check your connection and try again.',
};

function isFatal(error: LinkApiError): error is FatalError {
  return error.code !== 'network_error' && Object.prototype.hasOwnProperty.call(FATAL_ERRORS, error.code);
}

function publicError(error: FatalError): PublicLinkError {
  return { type: error.type, code: error.code, message: error.message, request_id: error.request_id ?? null };
}

function isErrorEnvelope(json: unknown): json is ErrorEnvelope {
  if (typeof json !== 'object' || json === null) return false;
  const error = (json as { error?: unknown }).error;
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string';
}

function readConfig(): LinkPageConfig | LinkOauthReturnConfig {
  const node = document.getElementById(LINK_CONFIG_ELEMENT_ID);
  if (!node) throw new Error('Fincore Link: the page configuration is missing');
  const config = JSON.parse(node.textContent ?? '') as LinkPageConfig | LinkOauthReturnConfig;
  // The token should not stay readable in the DOM longer than needed.
  node.remove();
  return config;
}

/** One call of the page's API (relative to the page, so it also works under an API Gateway stage path). */
async function callApi<P extends keyof LinkApiCalls>(
  apiBase: string,
  token: string,
  path: P,
  body: LinkApiCalls[P]['body'],
): Promise<ApiOutcome<LinkApiCalls[P]['answer']>> {
  let res: Response;
  try {
    res = await fetch(`${apiBase}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...body, link_token: token }),
      credentials: 'omit',
      cache: 'no-store',
      referrerPolicy: 'no-referrer',
    });
  } catch {
    return { ok: false, error: NETWORK_ERROR };
  }
  const json: unknown = await res.json().catch(() => null);
  if (res.ok && json) return { ok: true, value: json as LinkApiCalls[P]['answer'] };
  return { ok: false, error: isErrorEnvelope(json) ? json.error : INTERNAL_ERROR };
}

/** Where the flow starts: the consent screen, or the return from a provider's OAuth consent page. */
type FlowStart = { kind: 'consent' } | { kind: 'oauth_return'; oauth: LinkOauthReturn; resume: LinkOauthResume };

/** The file as base64 (without the data: URL prefix), read by the browser. */
function readAsBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result ?? '');
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsDataURL(file);
  });
}

/** "1.5 MB" */
function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

function runLinkFlow(cfg: LinkPageConfig, root: HTMLElement, start: FlowStart = { kind: 'consent' }): void {
  const session = cfg.session;
  const client = session.client_name;

  // screen counts the screens shown, so answers that arrive after the user moved on are dropped.
  const state: {
    view: LinkView | null;
    screen: number;
    institution: ChosenInstitution | null;
    fixed: boolean;
    result: LinkConnectedStep | null;
    error: FatalError | null;
  } = { view: null, screen: 0, institution: session.institution, fixed: Boolean(session.institution), result: null, error: null };

  let countryNames: Intl.DisplayNames | null = null;
  try {
    countryNames = new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    countryNames = null;
  }
  function countryName(code: string): string {
    try {
      return countryNames?.of(code) || code;
    } catch {
      return code;
    }
  }
  function productsText(): string {
    return listText(session.products.map((p) => PRODUCT_LABELS[p] || p));
  }
  function typeLabel(type: InstitutionTypeName): string {
    return TYPE_LABELS[type] || type;
  }

  // ---------- talking to the parent (SDK modal) ----------
  function post(message: LinkPageMessage): void {
    if (!cfg.embed || !cfg.parentOrigin || window.parent === window) return;
    window.parent.postMessage(message, cfg.parentOrigin);
  }
  function viewMetadata(): LinkExitMetadata {
    return {
      link_session_id: session.link_session_id,
      status: state.view,
      institution: state.institution ? { institution_id: state.institution.institution_id, name: state.institution.name } : null,
    };
  }

  // ---------- the page's API ----------
  function api<P extends keyof LinkApiCalls>(path: P, body: LinkApiCalls[P]['body']): Promise<ApiOutcome<LinkApiCalls[P]['answer']>> {
    return callApi(cfg.apiBase, cfg.token, path, body);
  }

  // ---------- screens ----------
  function show(view: LinkView, build: (screen: HTMLElement) => void): void {
    state.view = view;
    state.screen += 1;
    const screen = el('section', { className: 'screen', 'aria-labelledby': 'fc-heading' });
    build(screen);
    root.replaceChildren(screen);
    const h1 = screen.querySelector('h1');
    if (h1) {
      document.title = `${h1.textContent ?? ''} \u00b7 Fincore Link`;
      h1.focus();
    }
    post({ source: 'fincore-link', type: 'event', event_name: view, metadata: viewMetadata() });
  }
  // A form submit that cannot be sent twice; the button keeps focus (aria-disabled, not disabled).
  function busyButton(btn: HTMLButtonElement, busyText: string) {
    const idle = btn.textContent ?? '';
    const busy = {
      busy: false,
      start() {
        busy.busy = true;
        btn.setAttribute('aria-disabled', 'true');
        btn.textContent = busyText;
      },
      stop() {
        busy.busy = false;
        btn.removeAttribute('aria-disabled');
        btn.textContent = idle;
      },
    };
    return busy;
  }
  function inlineError(box: HTMLElement, message: string, input: HTMLInputElement | null): void {
    box.textContent = message;
    if (input) {
      input.setAttribute('aria-invalid', 'true');
      // The error first, then whatever already described the field (its help text).
      const described = (input.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id !== '' && id !== box.id);
      input.setAttribute('aria-describedby', [box.id, ...described].join(' '));
      input.focus();
    }
  }

  function consent(): void {
    show('CONSENT', (s) => {
      const inst = state.institution;
      if (session.mode === 'update' && inst) {
        s.append(
          icon('info'),
          heading(`Reconnect your ${inst.name} account`),
          para(
            `${client} uses Fincore to connect your accounts. Your connection to ${inst.name}` +
              ' needs attention: sign in again to reconnect it. Your existing connection is kept.',
            'lead',
          ),
          el('div', { className: 'chip' }, [avatar(inst), el('span', { text: inst.name })]),
        );
      } else {
        s.append(
          icon('info'),
          heading(`${client} uses Fincore to connect your accounts`),
          el('ul', { className: 'points' }, [
            el('li', null, [
              el('span', { className: 'dot', 'aria-hidden': 'true', text: '1' }),
              el('div', null, [el('strong', { text: 'Secure' }), el('span', { text: `Your credentials are encrypted and never shared with ${client}.` })]),
            ]),
            el('li', null, [
              el('span', { className: 'dot', 'aria-hidden': 'true', text: '2' }),
              el('div', null, [el('strong', { text: 'Private' }), el('span', { text: `${client} only gets the data you agree to share: ${productsText()}.` })]),
            ]),
          ]),
        );
      }
      s.append(
        el('div', { className: 'spacer' }),
        el('div', { className: 'actions' }, [
          button('Continue', 'primary', () => {
            if (state.fixed) void consentStep();
            else institutions();
          }),
        ]),
        para(`By selecting Continue you agree to share your ${productsText()} data with ${client}.`, 'footer'),
      );
    });
  }

  function institutions(): void {
    let seq = 0;
    let timer: number | undefined;
    show('SELECT_INSTITUTION', (s) => {
      const screen = state.screen;
      const current = (mine: number) => mine === seq && screen === state.screen;
      const search = field('fc-search', 'Search institutions', {
        type: 'search',
        autocomplete: 'off',
        spellcheck: 'false',
        maxlength: '120',
        placeholder: 'Bank, card, app or exchange',
        'aria-controls': 'fc-results',
      });
      const type = selectField('fc-type', 'Type', [['', 'All types'], ...cfg.types.map((t) => [t, typeLabel(t)] as const)]);
      const countries = cfg.countries.map((c) => [c, countryName(c)] as const).sort((a, b) => a[1].localeCompare(b[1]));
      const country = selectField('fc-country', 'Country', [['', 'All countries'], ...countries]);
      const status = el('p', { id: 'fc-results-status', className: 'status', role: 'status', 'aria-live': 'polite' });
      const box = alertBox('fc-search-error');
      const list = el('ul', { id: 'fc-results', className: 'results', 'aria-label': 'Institutions' });

      function choose(inst: InstitutionView): void {
        window.clearTimeout(timer);
        state.institution = inst;
        void consentStep();
      }
      function render(found: readonly InstitutionView[]): void {
        const usable = found.filter((inst) => session.products.every((p) => inst.products.includes(p)));
        list.replaceChildren(
          ...usable.map((inst) => {
            const shown = inst.country_codes.slice(0, 3).map(countryName).join(', ');
            const more = inst.country_codes.length > 3 ? ` +${inst.country_codes.length - 3}` : '';
            const sub = `${typeLabel(inst.type)} \u00b7 ${shown}${more}`;
            return el('li', null, [
              el('button', { type: 'button', onClick: () => choose(inst) }, [
                avatar(inst),
                el('span', { className: 'inst-text' }, [el('span', { className: 'inst-name', text: inst.name }), el('span', { className: 'inst-sub', text: sub })]),
              ]),
            ]);
          }),
        );
        status.textContent =
          usable.length === 0 ? 'No institutions match. Try another name or filter.' : `${usable.length}${usable.length === 1 ? ' institution' : ' institutions'}`;
      }
      async function run(): Promise<void> {
        window.clearTimeout(timer);
        const mine = ++seq;
        const body: LinkApiCalls['institutions']['body'] = { query: search.input.value.trim().slice(0, 120) };
        if (type.select.value) body.types = [type.select.value as InstitutionTypeName];
        if (country.select.value) body.country_codes = [country.select.value];
        list.setAttribute('aria-busy', 'true');
        const outcome = await api('institutions', body);
        if (!current(mine)) return;
        list.removeAttribute('aria-busy');
        if (outcome.ok) {
          box.textContent = '';
          render(outcome.value.institutions);
        } else if (isFatal(outcome.error)) {
          fatal(outcome.error);
        } else {
          box.textContent = outcome.error.message;
        }
      }
      search.input.addEventListener('input', () => {
        window.clearTimeout(timer);
        timer = window.setTimeout(run, 200);
      });
      search.input.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          void run();
        }
      });
      type.select.addEventListener('change', run);
      country.select.addEventListener('change', run);

      s.append(heading('Select your institution'), search.wrap, el('div', { className: 'filters' }, [type.wrap, country.wrap]), box, status, list);
      void run();
    });
  }

  function credentials(): void {
    const inst = state.institution;
    if (!inst) return institutions();
    show('CREDENTIALS', (s) => {
      const sandbox = session.environment === 'test';
      const box = alertBox('fc-credentials-error');
      const user = field('fc-username', 'Username', { type: 'text', autocomplete: 'username', autocapitalize: 'none', spellcheck: 'false', maxlength: '200' });
      const pass = field('fc-password', 'Password', { type: 'password', autocomplete: 'current-password', maxlength: '200' });
      const submit = button('Submit', 'primary', null, 'submit');
      const busy = busyButton(submit, 'Connecting\u2026');
      const form = el('form', { novalidate: true, 'aria-describedby': sandbox ? 'fc-sandbox-hint' : null }, [
        box,
        user.wrap,
        pass.wrap,
        sandbox && el('p', { id: 'fc-sandbox-hint', className: 'hint', text: 'Sandbox: user_good / pass_good' }),
        el('div', { className: 'actions' }, [submit, uploadInstead(busy), backButton(busy)]),
      ]);
      form.addEventListener('submit', async (e) => {
        e.preventDefault();
        if (busy.busy) return;
        if (!user.input.value || !pass.input.value) {
          inlineError(box, 'Enter your username and password.', user.input.value ? pass.input : user.input);
          return;
        }
        busy.start();
        box.textContent = '';
        const outcome = await api('connect', { institution_id: inst.institution_id, username: user.input.value, password: pass.input.value });
        if (outcome.ok) return step(outcome.value);
        busy.stop();
        if (isFatal(outcome.error)) return fatal(outcome.error);
        pass.input.value = '';
        inlineError(box, outcome.error.message, pass.input);
      });
      s.append(
        el('div', { className: 'chip' }, [avatar(inst), el('span', { text: inst.name })]),
        heading(`Sign in to ${inst.name}`),
        para(`Enter the username and password you use for ${inst.name}. ${client} never sees them.`),
        form,
      );
    });
  }

  function mfa(prompt: string): void {
    show('MFA', (s) => {
      const box = alertBox('fc-mfa-error');
      const code = field('fc-code', 'Verification code', { type: 'text', inputmode: 'numeric', autocomplete: 'one-time-code', maxlength: '16' });
      const submit = button('Submit', 'primary', null, 'submit');
      const busy = busyButton(submit, 'Checking\u2026');
      const form = el('form', { novalidate: true }, [box, code.wrap, el('div', { className: 'actions' }, [submit])]);
      form.addEventListener('submit', async (e) => {
        e.preventDefault();
        if (busy.busy) return;
        if (!code.input.value.trim()) {
          inlineError(box, 'Enter the code.', code.input);
          return;
        }
        busy.start();
        box.textContent = '';
        const outcome = await api('mfa', { code: code.input.value.trim() });
        if (outcome.ok) return step(outcome.value);
        busy.stop();
        if (isFatal(outcome.error)) return fatal(outcome.error);
        code.input.value = '';
        inlineError(box, outcome.error.message, code.input);
      });
      s.append(icon('info'), heading('Enter your verification code'), para(prompt), form);
    });
  }

  // ---------- consent steps of real connectors ----------
  /** What /link/api/method said for the chosen institution (the upload alternative hangs off it). */
  let consentMethod: LinkConsentMethod | null = null;

  /** Asks how the chosen institution is connected, then shows that step. */
  async function consentStep(): Promise<void> {
    const inst = state.institution;
    if (!inst) return institutions();
    const screen = state.screen;
    const outcome = await api('method', { institution_id: inst.institution_id });
    if (screen !== state.screen) return;
    if (!outcome.ok) {
      if (isFatal(outcome.error)) return fatal(outcome.error);
      return fatal({ ...INTERNAL_ERROR, type: 'provider_error', code: 'provider_error', message: outcome.error.message });
    }
    consentMethod = outcome.value;
    switch (outcome.value.method) {
      case 'credentials':
        return credentials();
      case 'oauth':
        return oauth(null);
      case 'api_key':
        return apiKey();
      case 'address':
        return address();
      case 'file':
        return upload();
      default:
        return fatal({ ...INTERNAL_ERROR, type: 'provider_error', code: 'provider_error', message: `${inst.name} can\u2019t be connected right now.` });
    }
  }

  /** The way back from a step: the institution list, unless the institution is fixed. */
  function backButton(busy: { busy: boolean }) {
    return (
      !state.fixed &&
      button('Back', 'secondary', () => {
        if (!busy.busy) institutions();
      })
    );
  }

  /** "Upload a statement instead", when the institution also takes statement files. */
  function uploadInstead(busy: { busy: boolean }) {
    return (
      Boolean(consentMethod?.file_upload) &&
      consentMethod?.method !== 'file' &&
      button('Upload a statement instead', 'secondary', () => {
        if (!busy.busy) upload();
      })
    );
  }

  /** A refused consent, shown inline; errors that end the flow go to the error screen. */
  function refused(error: LinkApiError, box: HTMLElement, input: HTMLInputElement | null): void {
    if (isFatal(error)) return fatal(error);
    inlineError(box, error.message, input);
  }

  function oauth(returned: LinkApiError | null): void {
    const inst = state.institution;
    if (!inst) return institutions();
    if (cfg.embed) {
      // The provider's consent page and our callback never run inside a frame (they refuse to be
      // framed): an embedded Link cannot take this path, so it says so instead of leading nowhere.
      return show('OAUTH', (s) => {
        s.append(
          el('div', { className: 'chip' }, [avatar(inst), el('span', { text: inst.name })]),
          heading(`Connect with ${inst.name}`),
          para(`${inst.name} asks you to sign in on its own site, which can’t open inside this window. Ask ${client} to open this link in its own tab.`),
          el('div', { className: 'spacer' }),
          el('div', { className: 'actions' }, [uploadInstead({ busy: false }), backButton({ busy: false })]),
        );
      });
    }
    show('OAUTH', (s) => {
      const box = alertBox('fc-oauth-error');
      const go = button(`Continue to ${inst.name}`, 'primary', null);
      const busy = busyButton(go, 'Opening\u2026');
      go.addEventListener('click', async () => {
        if (busy.busy) return;
        busy.start();
        box.textContent = '';
        const outcome = await api('oauth/start', { institution_id: inst.institution_id });
        if (!outcome.ok) {
          busy.stop();
          return refused(outcome.error, box, null);
        }
        // The callback page finds the session again from this tab's storage (the URL carries no token).
        const resume: LinkOauthResume = { token: cfg.token, parentOrigin: cfg.parentOrigin, institution: inst, fixed: state.fixed };
        try {
          window.sessionStorage.setItem(LINK_OAUTH_RESUME_KEY, JSON.stringify(resume));
        } catch {
          busy.stop();
          return inlineError(box, 'This browser blocks the storage Link needs to come back from your institution. Allow site data for this page and try again.', null);
        }
        window.location.assign(outcome.value.authorize_url);
      });
      s.append(
        el('div', { className: 'chip' }, [avatar(inst), el('span', { text: inst.name })]),
        heading(`Connect with ${inst.name}`),
        para(`You\u2019ll sign in on ${inst.name}\u2019s own site and choose what to share. ${client} never sees your password. You\u2019ll come back here when you\u2019re done.`),
        box,
        el('div', { className: 'spacer' }),
        el('div', { className: 'actions' }, [go, uploadInstead(busy), backButton(busy)]),
      );
      if (returned) inlineError(box, returned.message, null);
    });
  }

  /** Back from the provider: the consent is completed server-side (the state is checked there). */
  async function completeOauth(returned: LinkOauthReturn): Promise<void> {
    show('OAUTH', (s) => {
      s.append(icon('info'), heading('Finishing your connection'), el('p', { className: 'status', role: 'status', 'aria-live': 'polite', text: 'Checking with your institution\u2026' }));
    });
    if (!returned.state) return oauth({ ...INTERNAL_ERROR, type: 'invalid_request', code: 'oauth_state_invalid', message: 'Your institution sent you back without the details Link needs. Start again.' });
    const body: LinkApiCalls['oauth/complete']['body'] = { state: returned.state };
    if (returned.code) body.code = returned.code;
    if (returned.error) body.error = returned.error;
    const outcome = await api('oauth/complete', body);
    if (outcome.ok) return step(outcome.value);
    if (isFatal(outcome.error)) return fatal(outcome.error);
    oauth(outcome.error);
  }

  function apiKey(): void {
    const inst = state.institution;
    if (!inst) return institutions();
    show('API_KEY', (s) => {
      const box = alertBox('fc-consent-error');
      const key = field('fc-api-key', 'API key', { type: 'text', autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false', maxlength: '200', 'aria-describedby': 'fc-api-key-help' });
      const secret = field('fc-api-secret', 'API secret', { type: 'password', autocomplete: 'off', maxlength: '200', 'aria-describedby': 'fc-api-key-help' });
      const submit = button('Connect', 'primary', null, 'submit');
      const busy = busyButton(submit, 'Connecting\u2026');
      const form = el('form', { novalidate: true }, [
        box,
        el('p', {
          id: 'fc-api-key-help',
          className: 'hint',
          text: `Create an API key in your ${inst.name} settings with read-only (view) permission only: never allow trading, transfers or withdrawals. You can delete the key there at any time.`,
        }),
        key.wrap,
        secret.wrap,
        el('div', { className: 'actions' }, [submit, uploadInstead(busy), backButton(busy)]),
      ]);
      form.addEventListener('submit', async (e) => {
        e.preventDefault();
        if (busy.busy) return;
        if (!key.input.value.trim() || !secret.input.value.trim()) {
          inlineError(box, 'Enter the API key and its secret.', key.input.value.trim() ? secret.input : key.input);
          return;
        }
        busy.start();
        box.textContent = '';
        const outcome = await api('consent', { institution_id: inst.institution_id, api_key: key.input.value.trim(), api_secret: secret.input.value.trim() });
        if (outcome.ok) return step(outcome.value);
        busy.stop();
        secret.input.value = '';
        refused(outcome.error, box, key.input);
      });
      s.append(
        el('div', { className: 'chip' }, [avatar(inst), el('span', { text: inst.name })]),
        heading(`Connect ${inst.name} with an API key`),
        para(`${client} never sees your key: Fincore keeps it encrypted and only reads your balances and history with it.`),
        form,
      );
    });
  }

  function address(): void {
    const inst = state.institution;
    if (!inst) return institutions();
    show('ADDRESS', (s) => {
      const box = alertBox('fc-consent-error');
      const addr = field('fc-address', 'Wallet address', { type: 'text', autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false', maxlength: '128', 'aria-describedby': 'fc-address-help' });
      const submit = button('Connect', 'primary', null, 'submit');
      const busy = busyButton(submit, 'Connecting\u2026');
      const form = el('form', { novalidate: true }, [
        box,
        el('p', {
          id: 'fc-address-help',
          className: 'hint',
          text: 'Paste a public Bitcoin or Ethereum address. Never enter a private key or recovery phrase: no one needs them to read a public address.',
        }),
        addr.wrap,
        el('div', { className: 'actions' }, [submit, uploadInstead(busy), backButton(busy)]),
      ]);
      form.addEventListener('submit', async (e) => {
        e.preventDefault();
        if (busy.busy) return;
        if (!addr.input.value.trim()) {
          inlineError(box, 'Enter the wallet address.', addr.input);
          return;
        }
        busy.start();
        box.textContent = '';
        const outcome = await api('consent', { institution_id: inst.institution_id, address: addr.input.value.trim() });
        if (outcome.ok) return step(outcome.value);
        busy.stop();
        refused(outcome.error, box, addr.input);
      });
      s.append(el('div', { className: 'chip' }, [avatar(inst), el('span', { text: inst.name })]), heading('Add your wallet address'), form);
    });
  }

  function upload(): void {
    const inst = state.institution;
    if (!inst) return institutions();
    show('UPLOAD', (s) => {
      const box = alertBox('fc-upload-error');
      const file = field('fc-file', 'Statement file', { type: 'file', accept: '.csv,.ofx,.qfx,.qbo', 'aria-describedby': 'fc-file-help' });
      const submit = button('Upload', 'primary', null, 'submit');
      const busy = busyButton(submit, 'Uploading\u2026');
      const other = consentMethod && consentMethod.method !== 'file' && consentMethod.method !== null;
      const form = el('form', { novalidate: true }, [
        box,
        el('p', {
          id: 'fc-file-help',
          className: 'hint',
          text: `Download a statement or transaction export from ${inst.name}\u2019s website as CSV, OFX, QFX or QBO (up to ${sizeText(cfg.uploadMaxBytes)}), then choose it here.`,
        }),
        file.wrap,
        el('div', { className: 'actions' }, [
          submit,
          other &&
            button(`Connect to ${inst.name} instead`, 'secondary', () => {
              if (!busy.busy) void consentStep();
            }),
          backButton(busy),
        ]),
      ]);
      form.addEventListener('submit', async (e) => {
        e.preventDefault();
        if (busy.busy) return;
        const chosen = file.input.files?.[0];
        if (!chosen) return inlineError(box, 'Choose a statement file to upload.', file.input);
        if (chosen.size === 0) return inlineError(box, `${chosen.name} is empty. Choose another file.`, file.input);
        if (chosen.size > cfg.uploadMaxBytes) {
          return inlineError(box, `${chosen.name} is ${sizeText(chosen.size)}; files up to ${sizeText(cfg.uploadMaxBytes)} can be uploaded. Export a shorter period.`, file.input);
        }
        busy.start();
        box.textContent = '';
        let base64: string;
        try {
          base64 = await readAsBase64(chosen);
        } catch {
          busy.stop();
          return inlineError(box, `${chosen.name} could not be read. Choose the file again.`, file.input);
        }
        const outcome = await api('upload', { institution_id: inst.institution_id, file_name: chosen.name.slice(0, 255), file_base64: base64 });
        if (outcome.ok) return step(outcome.value);
        busy.stop();
        refused(outcome.error, box, file.input);
      });
      s.append(
        el('div', { className: 'chip' }, [avatar(inst), el('span', { text: inst.name })]),
        heading('Upload a statement'),
        para(`${client} gets the accounts and transactions in the file you choose, and nothing else.`),
        form,
      );
    });
  }

  function step(res: LinkStepResult): void {
    if (res.status === 'mfa_required') return mfa(res.mfa.prompt);
    state.result = res;
    state.institution = res.metadata.institution;
    connected(res);
  }

  function connected(res: LinkConnectedStep): void {
    show('CONNECTED', (s) => {
      s.append(icon('ok'), heading('Account connected'), para(`Your ${res.metadata.institution.name} account is now connected to ${client}.`, 'lead'));
      if (res.metadata.accounts.length) {
        s.append(
          el(
            'ul',
            { className: 'accounts', 'aria-label': 'Connected accounts' },
            res.metadata.accounts.map((a) => el('li', null, [el('span', { text: a.name }), el('span', { className: 'mask', text: `\u2022\u2022\u2022\u2022 ${a.mask}` })])),
          ),
        );
      }
      s.append(el('div', { className: 'spacer' }), el('div', { className: 'actions' }, [button('Continue', 'primary', finish)]));
    });
  }

  function finish(): void {
    const res = state.result;
    if (!res) return;
    if (cfg.embed) {
      post({ source: 'fincore-link', type: 'success', public_token: res.public_token, metadata: res.metadata });
      return done('Connected', `You can return to ${client}.`);
    }
    if (res.redirect_url && /^https?:\/\//i.test(res.redirect_url)) {
      window.location.assign(res.redirect_url);
      return;
    }
    done('You\u2019re all set', `You can close this window and return to ${client}.`);
  }

  function fatal(error: FatalError): void {
    state.error = error;
    const copy = FATAL_ERRORS[error.code];
    show('ERROR', (s) => {
      s.append(
        icon('warn'),
        heading(copy.title),
        para(error.message, 'lead'),
        para(copy.next),
        para(`Error code: ${error.code}${error.request_id ? ` \u00b7 Reference: ${error.request_id}` : ''}`, 'code'),
        el('div', { className: 'spacer' }),
        el('div', { className: 'actions' }, [button('Exit', 'primary', () => exit(error))]),
      );
    });
  }

  function exit(error: FatalError | null): void {
    if (cfg.embed) {
      post({ source: 'fincore-link', type: 'exit', error: error ? publicError(error) : null, metadata: viewMetadata() });
      return done('Link closed', `You can return to ${client}.`);
    }
    if (session.redirect_uri && /^https?:\/\//i.test(session.redirect_uri)) {
      const url = new URL(session.redirect_uri);
      if (error) {
        url.searchParams.set('error_type', error.type);
        url.searchParams.set('error_code', error.code);
      }
      url.searchParams.set('link_session_id', session.link_session_id);
      window.location.assign(url.toString());
      return;
    }
    done('You can close this window', `Return to ${client} to try again.`);
  }

  function done(title: string, text: string): void {
    show('DONE', (s) => s.append(heading(title), para(text, 'lead')));
  }

  // Closing the modal (Escape here, or the SDK's Close button / Escape in the host page, which ask
  // through postMessage): a finished connection still hands over its public token; otherwise exit,
  // with the error when one ended the flow.
  function requestClose(): void {
    if (state.view === 'DONE') return;
    if (state.view === 'CONNECTED') return finish();
    exit(state.view === 'ERROR' ? state.error : null);
  }
  if (cfg.embed) {
    // The SDK focuses the iframe once it loads; a focus() made before that does not stick, so the
    // current screen's heading takes focus when the frame receives it.
    window.addEventListener('focus', () => {
      if (!document.activeElement || document.activeElement === document.body) root.querySelector('h1')?.focus();
    });
    document.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      requestClose();
    });
    window.addEventListener('message', (e) => {
      if (e.source !== window.parent || e.origin !== cfg.parentOrigin) return;
      if (isSdkCloseMessage(e.data)) requestClose();
    });
  }
  if (start.kind === 'oauth_return') {
    state.institution = start.resume.institution;
    state.fixed = start.resume.fixed;
    void completeOauth(start.oauth);
  } else {
    consent();
  }
}

/** The OAuth callback page: the session is found again from this tab's storage, then the flow resumes. */
async function resumeOauth(cfg: LinkOauthReturnConfig, root: HTMLElement): Promise<void> {
  // The code should not stay in the address bar or the history once read.
  window.history.replaceState(null, '', window.location.pathname);
  let resume: LinkOauthResume | null;
  try {
    resume = JSON.parse(window.sessionStorage.getItem(LINK_OAUTH_RESUME_KEY) ?? 'null') as LinkOauthResume | null;
    window.sessionStorage.removeItem(LINK_OAUTH_RESUME_KEY);
  } catch {
    resume = null;
  }
  const lost = (message: string) => {
    const screen = el('section', { className: 'screen', 'aria-labelledby': 'fc-heading' }, [icon('warn'), heading('We couldn\u2019t finish connecting'), para(message, 'lead')]);
    root.replaceChildren(screen);
    screen.querySelector('h1')?.focus();
  };
  if (!resume || typeof resume.token !== 'string') {
    return lost('This page was opened outside the Link window that started the connection. Go back to the app and open Link again.');
  }
  const session = await callApi(cfg.apiBase, resume.token, 'session', {});
  if (!session.ok) return lost(`${session.error.message} Go back to the app and open Link again.`);
  const flow: LinkPageConfig = {
    mode: 'flow',
    token: resume.token,
    // Providers' consent pages run top-level, so the way back is never inside the SDK's frame.
    embed: false,
    parentOrigin: null,
    session: session.value,
    types: cfg.types,
    countries: cfg.countries,
    apiBase: cfg.apiBase,
    uploadMaxBytes: cfg.uploadMaxBytes,
  };
  runLinkFlow(flow, root, { kind: 'oauth_return', oauth: cfg.oauth, resume });
}

const appRoot = document.getElementById('app');
if (appRoot) {
  const config = readConfig();
  if (config.mode === 'oauth_return') void resumeOauth(config, appRoot);
  else runLinkFlow(config, appRoot);
}
