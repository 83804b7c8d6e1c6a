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
  type LinkSelectAccountsStep,
  type LinkStepResult,
  type LinkView,
  type PublicLinkError,
} from '../protocol';
import { linkLanguageOf, negotiateLanguage, translator, type Translate } from '../i18n';
import { fatalCopy, isFatalCode, productLabel, typeLabel as typeLabelOf, type FatalErrorCode } from './copy';
import { ICONS } from '../icons';
import { alertBox, avatar, button, el, field, heading, icon, listText, para, selectField } from './dom';
import { accountSelectionPane } from './account-select';

/** An error the page's API answered (the contract's envelope). */
interface ContractError {
  type: ErrorType;
  code: ErrorCode;
  message: string;
  request_id?: string;
  documentation_url?: string;
  display_message?: string | null;
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
  'oauth/start': { body: { institution_id: string }; answer: { authorize_url: string; returns_to: 'link' | 'redirect_uri' } };
  'oauth/resume': { body: { received_redirect_uri: string }; answer: LinkStepResult };
  'accounts/select': { body: { public_token: string; account_ids: string[] }; answer: LinkStepResult };
  'oauth/complete': { body: { state: string; code?: string; error?: string }; answer: LinkStepResult };
  consent: { body: { institution_id: string; api_key?: string; api_secret?: string; address?: string }; answer: LinkStepResult };
  upload: { body: { institution_id: string; file_name: string; file_base64: string }; answer: LinkStepResult };
}
type ApiOutcome<T> = { ok: true; value: T } | { ok: false; error: LinkApiError };

/** The institution being connected: from the session, the search results, or the connection. */
type ChosenInstitution = Pick<InstitutionView, 'institution_id' | 'name'> & Partial<Pick<InstitutionView, 'primary_color' | 'logo'>>;

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
  return error.code !== 'network_error' && isFatalCode(error.code);
}

/**
 * What the user reads for an error: the page's own ones (no network, an unreadable answer) in the
 * session's language; the API's message otherwise (it names the specific problem, in English).
 */
function errorText(t: Translate, error: LinkApiError): string {
  if (error === NETWORK_ERROR) return t('error.network');
  if (error === INTERNAL_ERROR) return t('error.internal');
  return error.message;
}

function publicError(error: FatalError): PublicLinkError {
  return {
    type: error.type,
    code: error.code,
    message: error.message,
    request_id: error.request_id ?? null,
    documentation_url: error.documentation_url ?? null,
    display_message: error.display_message ?? null,
  };
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

/** The steps that can end in a connection: the page always lets the user choose the accounts to share. */
const SELECTING_STEPS: readonly (keyof LinkApiCalls)[] = ['connect', 'mfa', 'oauth/complete', 'oauth/resume', 'consent', 'upload'];

/** One call of the page's API (relative to the page, so it also works under an API Gateway stage path). */
async function callApi<P extends keyof LinkApiCalls>(
  apiBase: string,
  token: string,
  path: P,
  body: LinkApiCalls[P]['body'],
  /** Called when the response's status arrives, before its body is read (the loading pane's progress). */
  onAnswered?: () => void,
): Promise<ApiOutcome<LinkApiCalls[P]['answer']>> {
  let res: Response;
  try {
    res = await fetch(`${apiBase}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...body, link_token: token, ...(SELECTING_STEPS.includes(path) ? { account_selection: true } : {}) }),
      credentials: 'omit',
      cache: 'no-store',
      referrerPolicy: 'no-referrer',
    });
  } catch {
    return { ok: false, error: NETWORK_ERROR };
  }
  onAnswered?.();
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

/** "1.5 MB" ("1,5 Mo" in French). */
function sizeText(t: Translate, locale: string, bytes: number): string {
  if (bytes >= 1024 * 1024) {
    return t('size.mb', { n: new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(bytes / (1024 * 1024)) });
  }
  return t('size.kb', { n: new Intl.NumberFormat(locale).format(Math.ceil(bytes / 1024)) });
}

function runLinkFlow(cfg: LinkPageConfig, root: HTMLElement, start: FlowStart = { kind: 'consent' }): void {
  const session = cfg.session;
  const client = session.client_name;
  const language = linkLanguageOf(session.language);
  const t = translator(language);

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
    countryNames = new Intl.DisplayNames([language], { type: 'region' });
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
    return listText(language, t('list.and'), session.products.map((p) => productLabel(t, p)));
  }
  function typeLabel(type: InstitutionTypeName): string {
    return typeLabelOf(t, type);
  }
  function size(bytes: number): string {
    return sizeText(t, language, bytes);
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
  function api<P extends keyof LinkApiCalls>(path: P, body: LinkApiCalls[P]['body'], onAnswered?: () => void): Promise<ApiOutcome<LinkApiCalls[P]['answer']>> {
    return callApi(cfg.apiBase, cfg.token, path, body, onAnswered);
  }

  // ---------- screens ----------
  // ---------- navigation: Back (header, left), Close (header, right), Exit (end of every pane) ----------
  const navStart = document.getElementById('fc-nav-start');
  const closeButton = document.getElementById('fc-close');
  closeButton?.removeAttribute('hidden');
  closeButton?.addEventListener('click', () => requestClose());

  /**
   * Shows a pane. `back` is where Back leads (the header's Back button; none when null). Every pane
   * but the last (DONE) ends with Exit, which, like Close and Escape, ends the flow without asking.
   */
  function show(view: LinkView, build: (screen: HTMLElement) => (() => void) | void, nav: { back?: (() => void) | null } = {}): void {
    state.view = view;
    state.screen += 1;
    const screen = el('section', { className: 'screen', 'aria-labelledby': 'fc-heading' });
    // What build returns runs once the pane is in the document (to focus a refused field).
    const shown = build(screen);
    // The error pane's own primary action is Exit.
    if (view !== 'DONE' && view !== 'ERROR') {
      screen.append(el('div', { className: 'pane-exit' }, [button(t('nav.exit'), 'link', () => requestClose())]));
    }
    const back = nav.back ?? null;
    navStart?.replaceChildren(...(back ? [backButton(back)] : []));
    if (closeButton) closeButton.hidden = view === 'DONE';
    // Lets the stylesheet lay out a pane as a whole (the institution list fills a phone's screen).
    document.body.setAttribute('data-view', view);
    root.replaceChildren(screen);
    const h1 = screen.querySelector('h1');
    if (h1) {
      document.title = t('shell.screenTitle', { heading: h1.textContent ?? '' });
      h1.focus();
    }
    if (shown) shown();
    post({ source: 'fincore-link', type: 'event', event_name: view, metadata: viewMetadata() });
  }
  // A form submit that cannot be sent twice; the button keeps focus (aria-disabled, not disabled).
  // `mirror` (optional) follows the busy state too, for controls built outside the pane (Back).
  function busyButton(btn: HTMLButtonElement, busyText: string, mirror?: { busy: boolean }) {
    const idle = btn.textContent ?? '';
    const busy = {
      busy: false,
      start() {
        busy.busy = true;
        if (mirror) mirror.busy = true;
        btn.setAttribute('aria-disabled', 'true');
        btn.textContent = busyText;
      },
      stop() {
        busy.busy = false;
        if (mirror) mirror.busy = false;
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
          heading(t('consent.updateHeading', { institution: inst.name })),
          para(t('consent.updateText', { client, institution: inst.name }), 'lead'),
          el('div', { className: 'chip' }, [avatar(inst), el('span', { text: inst.name })]),
        );
      } else {
        s.append(
          icon('info'),
          heading(t('consent.heading', { client })),
          el('ul', { className: 'points' }, [
            el('li', null, [
              el('span', { className: 'dot', 'aria-hidden': 'true', text: '1' }),
              el('div', null, [el('strong', { text: t('consent.secure') }), el('span', { text: t('consent.secureText', { client }) })]),
            ]),
            el('li', null, [
              el('span', { className: 'dot', 'aria-hidden': 'true', text: '2' }),
              el('div', null, [el('strong', { text: t('consent.private') }), el('span', { text: t('consent.privateText', { client, products: productsText() }) })]),
            ]),
          ]),
        );
      }
      s.append(
        el('div', { className: 'spacer' }),
        el('div', { className: 'actions' }, [
          button(t('nav.continue'), 'primary', () => {
            if (state.fixed) void consentStep();
            else institutions();
          }),
        ]),
        para(t('consent.footer', { client, products: productsText() }), 'footer'),
      );
    });
  }

  function institutions(): void {
    let seq = 0;
    let timer: number | undefined;
    show('SELECT_INSTITUTION', (s) => {
      const screen = state.screen;
      const current = (mine: number) => mine === seq && screen === state.screen;
      const search = field('fc-search', t('search.label'), {
        type: 'search',
        autocomplete: 'off',
        spellcheck: 'false',
        maxlength: '120',
        placeholder: t('search.placeholder'),
        'aria-controls': 'fc-results',
      });
      const type = selectField('fc-type', t('search.type'), [['', t('search.allTypes')], ...cfg.types.map((t) => [t, typeLabel(t)] as const)]);
      const countries = cfg.countries.map((c) => [c, countryName(c)] as const).sort((a, b) => a[1].localeCompare(b[1], language));
      const country = selectField('fc-country', t('search.country'), [['', t('search.allCountries')], ...countries]);
      const status = el('p', { id: 'fc-results-status', className: 'status', role: 'status', 'aria-live': 'polite' });
      const box = alertBox('fc-search-error');
      const list = el('ul', { id: 'fc-results', className: 'results', 'aria-label': t('search.results') });

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
        status.textContent = usable.length === 0 ? t('search.none') : t(usable.length === 1 ? 'search.countOne' : 'search.countOther', { count: usable.length });
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
          box.textContent = errorText(t, outcome.error);
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

      s.append(heading(t('search.heading')), search.wrap, el('div', { className: 'filters' }, [type.wrap, country.wrap]), box, status, list);
      void run();
    }, { back: consent });
  }

  /** What a form shows again after the loading pane when its request was refused (retryable). */
  interface Refusal {
    message: string;
  }

  function credentials(refusal: Refusal | null = null, username = ''): void {
    const inst = state.institution;
    if (!inst) return institutions();
    show(
      'CREDENTIALS',
      (s) => {
        const sandbox = session.environment === 'test';
        const box = alertBox('fc-credentials-error');
        const user = field('fc-username', t('credentials.username'), { type: 'text', autocomplete: 'username', autocapitalize: 'none', spellcheck: 'false', maxlength: '200' });
        const pass = field('fc-password', t('credentials.password'), { type: 'password', autocomplete: 'current-password', maxlength: '200' });
        user.input.value = username;
        const submit = button(t('nav.submit'), 'primary', null, 'submit');
        const form = el('form', { novalidate: true, 'aria-describedby': sandbox ? 'fc-sandbox-hint' : null }, [
          box,
          user.wrap,
          pass.wrap,
          sandbox && el('p', { id: 'fc-sandbox-hint', className: 'hint', text: t('credentials.sandboxHint') }),
          el('div', { className: 'actions' }, [submit, uploadInstead({ busy: false })]),
        ]);
        form.addEventListener('submit', async (e) => {
          e.preventDefault();
          if (!user.input.value || !pass.input.value) {
            inlineError(box, t('credentials.missing'), user.input.value ? pass.input : user.input);
            return;
          }
          const typed = user.input.value;
          const progress = connecting('connect');
          const outcome = await api('connect', { institution_id: inst.institution_id, username: typed, password: pass.input.value }, progress.answered);
          if (!progress.current()) return;
          if (outcome.ok) return progress.finish(outcome.value);
          if (isFatal(outcome.error)) return fatal(outcome.error);
          credentials({ message: errorText(t, outcome.error) }, typed);
        });
        s.append(
          el('div', { className: 'chip' }, [avatar(inst), el('span', { text: inst.name })]),
          heading(t('credentials.heading', { institution: inst.name })),
          para(t('credentials.text', { institution: inst.name, client })),
          form,
        );
        return refusal ? () => inlineError(box, refusal.message, pass.input) : undefined;
      },
      { back: stepBack() },
    );
  }

  function mfa(prompt: string, refusal: Refusal | null = null): void {
    show(
      'MFA',
      (s) => {
        const box = alertBox('fc-mfa-error');
        const code = field('fc-code', t('mfa.code'), { type: 'text', inputmode: 'numeric', autocomplete: 'one-time-code', maxlength: '16' });
        const submit = button(t('nav.submit'), 'primary', null, 'submit');
        const form = el('form', { novalidate: true }, [box, code.wrap, el('div', { className: 'actions' }, [submit])]);
        form.addEventListener('submit', async (e) => {
          e.preventDefault();
          if (!code.input.value.trim()) {
            inlineError(box, t('mfa.missing'), code.input);
            return;
          }
          const progress = connecting('verify');
          const outcome = await api('mfa', { code: code.input.value.trim() }, progress.answered);
          if (!progress.current()) return;
          if (outcome.ok) return progress.finish(outcome.value);
          if (isFatal(outcome.error)) return fatal(outcome.error);
          mfa(prompt, { message: errorText(t, outcome.error) });
        });
        s.append(icon('info'), heading(t('mfa.heading')), para(prompt), form);
        return refusal ? () => inlineError(box, refusal.message, code.input) : undefined;
      },
      // Signing in again starts a new code.
      { back: () => credentials() },
    );
  }

  /**
   * The loading pane while a request that connects is in flight. Its steps follow that request, not
   * a timer: "Connecting to <bank>" until the answer's status arrives (or "Verifying" first, for a
   * code: the institution was reached already), "Verifying" while the answer is read, then
   * "Fetching accounts" as the connection's accounts are shown. Exit stays available; Back does
   * not (a sent request cannot be recalled).
   */
  function connecting(first: 'connect' | 'verify') {
    const inst = state.institution;
    const labels = [t('loading.stepConnect', { institution: inst?.name ?? '' }), t('loading.stepVerify'), t('loading.stepAccounts')];
    const items: HTMLLIElement[] = [];
    const announce = el('p', { id: 'fc-progress-status', className: 'sr-only', role: 'status', 'aria-live': 'polite' });
    const bar = el('div', { className: 'progress', role: 'progressbar', 'aria-label': t('loading.progressLabel'), 'aria-valuemin': '0', 'aria-valuemax': String(labels.length) }, [
      el('span', { className: 'progress-fill' }),
    ]);
    show('LOADING', (s) => {
      s.append(
        ...(inst ? [el('div', { className: 'chip' }, [avatar(inst), el('span', { text: inst.name })])] : []),
        heading(t('loading.heading')),
        bar,
        el(
          'ol',
          { className: 'steps' },
          labels.map((label) => {
            const item = el('li', null, [el('span', { className: 'step-mark', 'aria-hidden': 'true' }), el('span', { className: 'step-label', text: label }), el('span', { className: 'sr-only step-state' })]);
            items.push(item);
            return item;
          }),
        ),
        announce,
      );
    });
    const screen = state.screen;
    function reach(stage: number): void {
      if (screen !== state.screen) return;
      items.forEach((item, index) => {
        const status = index < stage ? 'done' : index === stage ? 'current' : 'pending';
        item.className = `step ${status}`;
        if (index === stage) item.setAttribute('aria-current', 'step');
        else item.removeAttribute('aria-current');
        const stateText = item.querySelector('.step-state');
        if (stateText) stateText.textContent = `, ${t(status === 'done' ? 'loading.done' : status === 'current' ? 'loading.current' : 'loading.pending')}`;
      });
      bar.setAttribute('aria-valuenow', String(stage));
      bar.setAttribute('aria-valuetext', t('loading.progress', { step: stage + 1, total: labels.length, label: labels[stage] ?? '' }));
      bar.style.setProperty('--fc-progress', String((stage + 0.5) / labels.length));
      announce.textContent = t('loading.progress', { step: stage + 1, total: labels.length, label: labels[stage] ?? '' });
    }
    reach(first === 'connect' ? 0 : 1);
    return {
      /** The answer's status arrived: it is being read. */
      answered: () => reach(1),
      /** Whether the loading pane is still the one shown (the user may have exited meanwhile). */
      current: () => screen === state.screen,
      /** The answer was a step: show its accounts (or the next question). */
      finish: (res: LinkStepResult) => {
        if (res.status !== 'mfa_required') reach(2);
        step(res);
      },
    };
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
        return fatal({ ...INTERNAL_ERROR, type: 'provider_error', code: 'provider_error', message: t('method.unavailable', { institution: inst.name }) });
    }
  }

  /** The header's Back button (an arrow and the word). */
  function backButton(go: () => void): HTMLButtonElement {
    const back = el('button', { type: 'button', className: 'nav-back', onClick: go }, [el('span', { className: 'nav-icon', 'aria-hidden': 'true' }), el('span', { text: t('nav.back') })]);
    back.querySelector('.nav-icon')!.innerHTML = ICONS.back;
    return back;
  }

  /**
   * Where Back leads from an institution's consent step: the institution list, or the consent pane
   * when the institution is fixed. Ignored while the step's own request is under way.
   */
  function stepBack(busy: { busy: boolean } = { busy: false }): () => void {
    return () => {
      if (busy.busy) return;
      if (state.fixed) consent();
      else institutions();
    };
  }

  /** "Upload a statement instead", when the institution also takes statement files. */
  function uploadInstead(busy: { busy: boolean }) {
    return (
      Boolean(consentMethod?.file_upload) &&
      consentMethod?.method !== 'file' &&
      button(t('method.uploadInstead'), 'secondary', () => {
        if (!busy.busy) upload();
      })
    );
  }

  /** A refused consent, shown inline; errors that end the flow go to the error screen. */
  function refused(error: LinkApiError, box: HTMLElement, input: HTMLInputElement | null): void {
    if (isFatal(error)) return fatal(error);
    inlineError(box, errorText(t, error), input);
  }

  function oauth(returned: LinkApiError | null): void {
    const inst = state.institution;
    if (!inst) return institutions();
    if (cfg.embed && !session.redirect_uri) {
      // The provider's consent page and our callback never run inside a frame (they refuse to be
      // framed): an embedded Link cannot take this path, so it says so instead of leading nowhere.
      // (With a redirect_uri, an institution that returns there is opened top-level by the SDK.)
      return show('OAUTH', (s) => {
        s.append(
          el('div', { className: 'chip' }, [avatar(inst), el('span', { text: inst.name })]),
          heading(t('oauth.heading', { institution: inst.name })),
          para(t('oauth.embedded', { institution: inst.name, client })),
          el('div', { className: 'spacer' }),
          el('div', { className: 'actions' }, [uploadInstead({ busy: false })]),
        );
      }, { back: stepBack() });
    }
    // Back waits while the provider's address is being fetched (the button's busy state, below).
    const guard = { busy: false };
    show('OAUTH', (s) => {
      const box = alertBox('fc-oauth-error');
      const go = button(t('oauth.continue', { institution: inst.name }), 'primary', null);
      const busy = busyButton(go, t('busy.opening'), guard);
      go.addEventListener('click', async () => {
        if (busy.busy) return;
        busy.start();
        box.textContent = '';
        const outcome = await api('oauth/start', { institution_id: inst.institution_id });
        if (!outcome.ok) {
          busy.stop();
          return refused(outcome.error, box, null);
        }
        if (cfg.embed) {
          busy.stop();
          // Back at the integrator's redirect_uri, its page re-opens Link with receivedRedirectUri.
          if (outcome.value.returns_to === 'redirect_uri') return post({ source: 'fincore-link', type: 'oauth_redirect', url: outcome.value.authorize_url });
          return inlineError(box, t('oauth.embedded', { institution: inst.name, client }), null);
        }
        // The callback page finds the session again from this tab's storage (the URL carries no token).
        const resume: LinkOauthResume = { token: cfg.token, parentOrigin: cfg.parentOrigin, institution: inst, fixed: state.fixed };
        try {
          window.sessionStorage.setItem(LINK_OAUTH_RESUME_KEY, JSON.stringify(resume));
        } catch {
          busy.stop();
          return inlineError(box, t('oauth.storageBlocked'), null);
        }
        window.location.assign(outcome.value.authorize_url);
      });
      s.append(
        el('div', { className: 'chip' }, [avatar(inst), el('span', { text: inst.name })]),
        heading(t('oauth.heading', { institution: inst.name })),
        para(t('oauth.text', { institution: inst.name, client })),
        box,
        el('div', { className: 'spacer' }),
        el('div', { className: 'actions' }, [go, uploadInstead(busy)]),
      );
      if (returned) inlineError(box, errorText(t, returned), null);
    }, { back: stepBack(guard) });
  }

  /** Back from the provider: the consent is completed server-side (the state is checked there). */
  async function completeOauth(returned: LinkOauthReturn): Promise<void> {
    show('OAUTH', (s) => {
      s.append(icon('info'), heading(t('oauth.finishing')), el('p', { className: 'status', role: 'status', 'aria-live': 'polite', text: t('oauth.checking') }));
    });
    if (!returned.state) return oauth({ ...INTERNAL_ERROR, type: 'invalid_request', code: 'oauth_state_invalid', message: t('oauth.noState') });
    const body: LinkApiCalls['oauth/complete']['body'] = { state: returned.state };
    if (returned.code) body.code = returned.code;
    if (returned.error) body.error = returned.error;
    const outcome = await api('oauth/complete', body);
    if (outcome.ok) return step(outcome.value);
    if (isFatal(outcome.error)) return fatal(outcome.error);
    oauth(outcome.error);
  }

  function apiKey(refusal: Refusal | null = null, typedKey = ''): void {
    const inst = state.institution;
    if (!inst) return institutions();
    show(
      'API_KEY',
      (s) => {
        const box = alertBox('fc-consent-error');
        const key = field('fc-api-key', t('apiKey.key'), { type: 'text', autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false', maxlength: '200', 'aria-describedby': 'fc-api-key-help' });
        const secret = field('fc-api-secret', t('apiKey.secret'), { type: 'password', autocomplete: 'off', maxlength: '200', 'aria-describedby': 'fc-api-key-help' });
        key.input.value = typedKey;
        const submit = button(t('nav.connect'), 'primary', null, 'submit');
        const form = el('form', { novalidate: true }, [
          box,
          el('p', { id: 'fc-api-key-help', className: 'hint', text: t('apiKey.hint', { institution: inst.name }) }),
          key.wrap,
          secret.wrap,
          el('div', { className: 'actions' }, [submit, uploadInstead({ busy: false })]),
        ]);
        form.addEventListener('submit', async (e) => {
          e.preventDefault();
          if (!key.input.value.trim() || !secret.input.value.trim()) {
            inlineError(box, t('apiKey.missing'), key.input.value.trim() ? secret.input : key.input);
            return;
          }
          const typed = key.input.value;
          const progress = connecting('connect');
          const outcome = await api('consent', { institution_id: inst.institution_id, api_key: typed.trim(), api_secret: secret.input.value.trim() }, progress.answered);
          if (!progress.current()) return;
          if (outcome.ok) return progress.finish(outcome.value);
          if (isFatal(outcome.error)) return fatal(outcome.error);
          apiKey({ message: errorText(t, outcome.error) }, typed);
        });
        s.append(
          el('div', { className: 'chip' }, [avatar(inst), el('span', { text: inst.name })]),
          heading(t('apiKey.heading', { institution: inst.name })),
          para(t('apiKey.text', { client })),
          form,
        );
        return refusal ? () => inlineError(box, refusal.message, key.input) : undefined;
      },
      { back: stepBack() },
    );
  }

  function address(refusal: Refusal | null = null, typedAddress = ''): void {
    const inst = state.institution;
    if (!inst) return institutions();
    show(
      'ADDRESS',
      (s) => {
        const box = alertBox('fc-consent-error');
        const addr = field('fc-address', t('address.label'), { type: 'text', autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false', maxlength: '128', 'aria-describedby': 'fc-address-help' });
        addr.input.value = typedAddress;
        const submit = button(t('nav.connect'), 'primary', null, 'submit');
        const form = el('form', { novalidate: true }, [
          box,
          el('p', { id: 'fc-address-help', className: 'hint', text: t('address.hint') }),
          addr.wrap,
          el('div', { className: 'actions' }, [submit, uploadInstead({ busy: false })]),
        ]);
        form.addEventListener('submit', async (e) => {
          e.preventDefault();
          if (!addr.input.value.trim()) {
            inlineError(box, t('address.missing'), addr.input);
            return;
          }
          const typed = addr.input.value;
          const progress = connecting('connect');
          const outcome = await api('consent', { institution_id: inst.institution_id, address: typed.trim() }, progress.answered);
          if (!progress.current()) return;
          if (outcome.ok) return progress.finish(outcome.value);
          if (isFatal(outcome.error)) return fatal(outcome.error);
          address({ message: errorText(t, outcome.error) }, typed);
        });
        s.append(el('div', { className: 'chip' }, [avatar(inst), el('span', { text: inst.name })]), heading(t('address.heading')), form);
        return refusal ? () => inlineError(box, refusal.message, addr.input) : undefined;
      },
      { back: stepBack() },
    );
  }

  function upload(): void {
    const inst = state.institution;
    if (!inst) return institutions();
    const guard = { busy: false };
    show('UPLOAD', (s) => {
      const box = alertBox('fc-upload-error');
      const file = field('fc-file', t('upload.file'), { type: 'file', accept: '.csv,.ofx,.qfx,.qbo', 'aria-describedby': 'fc-file-help' });
      const submit = button(t('upload.submit'), 'primary', null, 'submit');
      const busy = busyButton(submit, t('busy.uploading'), guard);
      const other = consentMethod && consentMethod.method !== 'file' && consentMethod.method !== null;
      const form = el('form', { novalidate: true }, [
        box,
        el('p', {
          id: 'fc-file-help',
          className: 'hint',
          text: t('upload.hint', { institution: inst.name, size: size(cfg.uploadMaxBytes) }),
        }),
        file.wrap,
        el('div', { className: 'actions' }, [
          submit,
          other &&
            button(t('upload.connectInstead', { institution: inst.name }), 'secondary', () => {
              if (!busy.busy) void consentStep();
            }),
        ]),
      ]);
      form.addEventListener('submit', async (e) => {
        e.preventDefault();
        if (busy.busy) return;
        const chosen = file.input.files?.[0];
        if (!chosen) return inlineError(box, t('upload.missing'), file.input);
        if (chosen.size === 0) return inlineError(box, t('upload.empty', { file: chosen.name }), file.input);
        if (chosen.size > cfg.uploadMaxBytes) {
          return inlineError(box, t('upload.tooLarge', { file: chosen.name, size: size(chosen.size), max: size(cfg.uploadMaxBytes) }), file.input);
        }
        busy.start();
        box.textContent = '';
        let base64: string;
        try {
          base64 = await readAsBase64(chosen);
        } catch {
          busy.stop();
          return inlineError(box, t('upload.unreadable', { file: chosen.name }), file.input);
        }
        const outcome = await api('upload', { institution_id: inst.institution_id, file_name: chosen.name.slice(0, 255), file_base64: base64 });
        if (outcome.ok) return step(outcome.value);
        busy.stop();
        refused(outcome.error, box, file.input);
      });
      s.append(
        el('div', { className: 'chip' }, [avatar(inst), el('span', { text: inst.name })]),
        heading(t('upload.heading')),
        para(t('upload.text', { client })),
        form,
      );
    }, { back: stepBack(guard) });
  }

  /**
   * Back at the integrator's redirect_uri after an OAuth consent, which re-opened Link with the URL
   * it was opened at: the consent is completed server-side from it (state and session checked there).
   */
  async function resumeFromRedirect(received: string): Promise<void> {
    show('OAUTH', (s) => {
      s.append(icon('info'), heading(t('oauth.finishing')), el('p', { className: 'status', role: 'status', 'aria-live': 'polite', text: t('oauth.checking') }));
    });
    const outcome = await api('oauth/resume', { received_redirect_uri: received });
    if (outcome.ok) return step(outcome.value);
    if (isFatal(outcome.error)) return fatal(outcome.error);
    // Declined or refused: the institution's screen again when it is known, with the reason.
    if (state.institution) return oauth(outcome.error);
    consent();
  }

  function selectAccounts(res: LinkSelectAccountsStep): void {
    const inst: ChosenInstitution = state.institution?.institution_id === res.institution.institution_id ? state.institution : res.institution;
    state.institution = inst;
    show('SELECT_ACCOUNTS', (s) => {
      const pane = accountSelectionPane({
        t,
        locale: language,
        client,
        step: res,
        institution: inst,
        update: session.mode === 'update',
        async submit(accountIds) {
          const outcome = await api('accounts/select', { public_token: res.public_token, account_ids: accountIds });
          if (outcome.ok) {
            step(outcome.value);
            return null;
          }
          if (isFatal(outcome.error)) {
            fatal(outcome.error);
            return null;
          }
          return errorText(t, outcome.error);
        },
      });
      s.append(...pane.nodes);
    });
  }

  function step(res: LinkStepResult): void {
    if (res.status === 'mfa_required') return mfa(res.mfa.prompt);
    if (res.status === 'select_accounts') return selectAccounts(res);
    state.result = res;
    state.institution = res.metadata.institution;
    connected(res);
  }

  function connected(res: LinkConnectedStep): void {
    show('CONNECTED', (s) => {
      s.append(icon('ok'), heading(t('connected.heading')), para(t('connected.text', { institution: res.metadata.institution.name, client }), 'lead'));
      if (res.metadata.accounts.length) {
        s.append(
          el(
            'ul',
            { className: 'accounts', 'aria-label': t('connected.accounts') },
            res.metadata.accounts.map((a) => el('li', null, [el('span', { text: a.name }), el('span', { className: 'mask', text: `\u2022\u2022\u2022\u2022 ${a.mask}` })])),
          ),
        );
      }
      s.append(el('div', { className: 'spacer' }), el('div', { className: 'actions' }, [button(t('nav.continue'), 'primary', finish)]));
    });
  }

  function finish(): void {
    const res = state.result;
    if (!res) return;
    if (cfg.embed) {
      post({ source: 'fincore-link', type: 'success', public_token: res.public_token, metadata: res.metadata });
      return done(t('done.embedded'), t('done.returnTo', { client }));
    }
    if (res.redirect_url && /^https?:\/\//i.test(res.redirect_url)) {
      window.location.assign(res.redirect_url);
      return;
    }
    done(t('done.hosted'), t('done.hostedText', { client }));
  }

  function fatal(error: FatalError): void {
    state.error = error;
    const copy = fatalCopy(t, error.code);
    show('ERROR', (s) => {
      s.append(
        icon('warn'),
        heading(copy.title),
        para(error.message, 'lead'),
        para(copy.next),
        para([t('error.code', { code: error.code }), error.request_id ? t('error.reference', { reference: error.request_id }) : ''].filter(Boolean).join(' \u00b7 '), 'code'),
        el('div', { className: 'spacer' }),
        el('div', { className: 'actions' }, [button(t('nav.exit'), 'primary', () => exit(error))]),
      );
    });
  }

  function exit(error: FatalError | null): void {
    if (cfg.embed) {
      post({ source: 'fincore-link', type: 'exit', error: error ? publicError(error) : null, metadata: viewMetadata() });
      return done(t('exit.embedded'), t('done.returnTo', { client }));
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
    done(t('exit.hosted'), t('exit.hostedText', { client }));
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
  } else if (cfg.selectionStep) {
    selectAccounts(cfg.selectionStep);
  } else if (cfg.receivedRedirectUri) {
    // The institution chosen before leaving, when this tab kept it (it is only shown, never trusted).
    try {
      const kept = JSON.parse(window.sessionStorage.getItem(LINK_OAUTH_RESUME_KEY) ?? 'null') as LinkOauthResume | null;
      window.sessionStorage.removeItem(LINK_OAUTH_RESUME_KEY);
      if (kept && kept.token === cfg.token && kept.institution && typeof kept.institution.name === 'string') {
        state.institution = kept.institution;
        state.fixed = kept.fixed === true;
      }
    } catch {
      // storage blocked: the institution is named by the connection's answer
    }
    void resumeFromRedirect(cfg.receivedRedirectUri);
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
  // No session yet (or none at all): the browser's languages choose, as on the server's error page.
  const t = translator(negotiateLanguage(navigator.languages));
  const lost = (message: string) => {
    const screen = el('section', { className: 'screen', 'aria-labelledby': 'fc-heading' }, [icon('warn'), heading(t('oauth.lostHeading')), para(message, 'lead')]);
    root.replaceChildren(screen);
    screen.querySelector('h1')?.focus();
  };
  if (!resume || typeof resume.token !== 'string') {
    return lost(t('oauth.lostOutside'));
  }
  const session = await callApi(cfg.apiBase, resume.token, 'session', {});
  if (!session.ok) return lost(`${errorText(t, session.error)} ${t('oauth.lostAgain')}`);
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
