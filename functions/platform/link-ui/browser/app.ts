// The hosted Link page's script (no framework, no external assets), bundled into the page by
// bin/build-link-ui.ts and run under the page's nonce'd CSP. It reads its configuration (the link
// token, the described session, whether the SDK embeds it and the parent's origin) from the JSON
// block the server rendered, then drives the flow against the page's own API (/link/api/...).
//
// Screens: CONSENT -> SELECT_INSTITUTION (skipped when an institution is fixed) -> CREDENTIALS ->
// MFA (when asked) -> CONNECTED -> redirect / postMessage / DONE. Non-retryable errors end on
// ERROR with an Exit button; retryable ones (wrong credentials or code) show inline (role="alert").
import type { ErrorCode, ErrorEnvelope, ErrorType } from '../../../contracts/errors';
import {
  isSdkCloseMessage,
  LINK_CONFIG_ELEMENT_ID,
  type InstitutionTypeName,
  type InstitutionView,
  type LinkConnectedStep,
  type LinkExitMetadata,
  type LinkPageConfig,
  type LinkPageMessage,
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

function readConfig(): LinkPageConfig {
  const node = document.getElementById(LINK_CONFIG_ELEMENT_ID);
  if (!node) throw new Error('Fincore Link: the page configuration is missing');
  const config = JSON.parse(node.textContent ?? '') as LinkPageConfig;
  // The token should not stay readable in the DOM longer than needed.
  node.remove();
  return config;
}

function runLinkFlow(cfg: LinkPageConfig, root: HTMLElement): void {
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
  async function api<P extends keyof LinkApiCalls>(path: P, body: LinkApiCalls[P]['body']): Promise<ApiOutcome<LinkApiCalls[P]['answer']>> {
    let res: Response;
    try {
      // Relative to the page ({base}/link), so it also works under an API Gateway stage path.
      res = await fetch(`link/api/${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...body, link_token: cfg.token }),
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
      input.setAttribute('aria-describedby', box.id);
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
            if (state.fixed) credentials();
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
        credentials();
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
        el('div', { className: 'actions' }, [
          submit,
          !state.fixed &&
            button('Back', 'secondary', () => {
              if (!busy.busy) institutions();
            }),
        ]),
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
  consent();
}

const appRoot = document.getElementById('app');
if (appRoot) runLinkFlow(readConfig(), appRoot);
