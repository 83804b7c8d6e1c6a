// The hosted Link page's script: small vanilla JS (ES2017, no framework, no external assets), run
// under a nonce'd CSP. It reads its configuration (the link token, the described session, whether
// it is embedded by the SDK and the parent's origin) from the JSON block the server rendered, then
// drives the flow against the page's own API (/link/api/...). Text is only ever set through
// textContent, never as HTML.
//
// Screens: CONSENT -> SELECT_INSTITUTION (skipped when an institution is fixed) -> CREDENTIALS ->
// MFA (when asked) -> CONNECTED -> redirect / postMessage / DONE. Non-retryable errors end on
// ERROR with an Exit button; retryable ones (wrong credentials or code) show inline (role="alert").
//
// Kept as a plain string (not compiled TS) so that what runs in the browser is exactly this text.
import { ICONS } from './icons';

export const LINK_APP_SCRIPT = String.raw`
(function () {
  'use strict';
  var ICONS = ${JSON.stringify(ICONS)};
  var cfgNode = document.getElementById('fc-link-config');
  var cfg = JSON.parse(cfgNode.textContent);
  cfgNode.parentNode.removeChild(cfgNode);
  var session = cfg.session;
  var client = session.client_name;
  var root = document.getElementById('app');

  var TYPE_LABELS = {
    bank: 'Bank', credit_union: 'Credit union', payment_app: 'Payment app', investment: 'Investment',
    crypto_exchange: 'Crypto exchange', crypto_wallet: 'Crypto wallet', business: 'Business'
  };
  var PRODUCT_LABELS = {
    transactions: 'transactions', identity: 'identity', income: 'income', assets: 'assets',
    investments: 'investments', liabilities: 'liabilities', recurring: 'recurring payments'
  };
  // Errors that end the flow (error screen + Exit). Everything else is shown inline and the user can
  // retry or go back: invalid_credentials and invalid_mfa_code above all.
  var FATAL_TITLES = {
    item_locked: 'Your login is locked',
    too_many_attempts: 'Too many attempts',
    link_token_used: 'This link was already used',
    link_token_expired: 'This link has expired',
    invalid_link_token: 'This link isn\u2019t valid',
    provider_error: 'We couldn\u2019t reach your institution',
    institution_mismatch: 'This institution can\u2019t be changed',
    no_mfa_pending: 'Your sign-in was interrupted'
  };
  var FATAL_NEXT = {
    item_locked: 'Unlock your login with your institution, then try again.',
    too_many_attempts: 'Ask the app for a new link to try again.',
    link_token_used: 'Ask the app for a new link.',
    link_token_expired: 'Ask the app for a new link.',
    invalid_link_token: 'Ask the app for a new link.',
    provider_error: 'Try again later.',
    institution_mismatch: 'Ask the app for a new link.',
    no_mfa_pending: 'Ask the app for a new link.'
  };

  // screen counts the screens shown, so answers that arrive after the user moved on are dropped.
  var state = { view: null, screen: 0, institution: session.institution, fixed: !!session.institution, result: null, error: null };
  var countryNames = null;
  try { countryNames = new Intl.DisplayNames(['en'], { type: 'region' }); } catch (e) { countryNames = null; }

  // ---------- DOM helpers ----------
  function el(tag, props, kids) {
    var node = document.createElement(tag);
    if (props) {
      Object.keys(props).forEach(function (key) {
        var value = props[key];
        if (value === null || value === undefined || value === false) return;
        if (key === 'text') node.textContent = value;
        else if (key === 'className') node.className = value;
        else if (key.slice(0, 2) === 'on') node.addEventListener(key.slice(2).toLowerCase(), value);
        else node.setAttribute(key, value === true ? '' : String(value));
      });
    }
    (kids || []).forEach(function (kid) { if (kid !== null && kid !== undefined && kid !== false) node.append(kid); });
    return node;
  }
  function icon(kind) {
    var node = el('div', { className: 'icon ' + kind, 'aria-hidden': 'true' });
    node.innerHTML = ICONS[kind];
    return node;
  }
  function heading(text) { return el('h1', { id: 'fc-heading', tabindex: '-1', text: text }); }
  function para(text, className) { return el('p', { className: className || null, text: text }); }
  function button(text, className, onClick, type) {
    return el('button', { type: type || 'button', className: className, text: text, onClick: onClick || null });
  }
  function field(id, labelText, attrs) {
    var input = el('input', Object.assign({ id: id, name: id.replace('fc-', '') }, attrs || {}));
    return { wrap: el('div', { className: 'field' }, [el('label', { 'for': id, text: labelText }), input]), input: input };
  }
  function selectField(id, labelText, options) {
    var select = el('select', { id: id, name: id.replace('fc-', '') },
      options.map(function (o) { return el('option', { value: o[0], text: o[1] }); }));
    return { wrap: el('div', { className: 'field' }, [el('label', { 'for': id, text: labelText }), select]), select: select };
  }
  function alertBox(id) { return el('div', { id: id, className: 'alert', role: 'alert' }); }
  function avatar(inst) {
    var node = el('span', { className: 'avatar', 'aria-hidden': 'true', text: (inst.name || '?').charAt(0).toUpperCase() });
    if (typeof inst.primary_color === 'string' && /^#[0-9a-fA-F]{3,8}$/.test(inst.primary_color)) node.style.backgroundColor = inst.primary_color;
    return node;
  }
  function listText(words) {
    if (words.length <= 1) return words.join('');
    return words.slice(0, -1).join(', ') + ' and ' + words[words.length - 1];
  }
  function productsText() {
    return listText(session.products.map(function (p) { return PRODUCT_LABELS[p] || p; }));
  }
  function countryName(code) {
    try { return (countryNames && countryNames.of(code)) || code; } catch (e) { return code; }
  }

  // ---------- talking to the parent (SDK modal) ----------
  function post(message) {
    if (!cfg.embed || !cfg.parentOrigin || window.parent === window) return;
    message.source = 'fincore-link';
    window.parent.postMessage(message, cfg.parentOrigin);
  }
  function viewMetadata() {
    return {
      link_session_id: session.link_session_id,
      status: state.view,
      institution: state.institution ? { institution_id: state.institution.institution_id, name: state.institution.name } : null
    };
  }

  // ---------- the page's API ----------
  function api(path, body) {
    body.link_token = cfg.token;
    // Relative to the page ({base}/link), so it also works under an API Gateway stage path.
    return fetch('link/api/' + path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store',
      referrerPolicy: 'no-referrer'
    }).then(function (res) {
      return res.json().catch(function () { return null; }).then(function (json) {
        if (res.ok && json) return json;
        var e = json && json.error ? json.error : null;
        throw e && typeof e.code === 'string' ? e : {
          type: 'api_error', code: 'internal_error', message: 'Something went wrong on our side. Try again in a moment.'
        };
      });
    }, function () {
      throw { type: 'network_error', code: 'network_error', message: 'We couldn\u2019t reach Fincore. Check your connection and try again.' };
    });
  }
  function isFatal(error) { return Object.prototype.hasOwnProperty.call(FATAL_TITLES, error.code); }
  function publicError(error) {
    return { type: error.type, code: error.code, message: error.message, request_id: error.request_id || null };
  }

  // ---------- screens ----------
  function show(view, build) {
    state.view = view;
    state.screen += 1;
    var screen = el('section', { className: 'screen', 'aria-labelledby': 'fc-heading' });
    build(screen);
    root.replaceChildren(screen);
    var h1 = screen.querySelector('h1');
    document.title = h1.textContent + ' \u00b7 Fincore Link';
    h1.focus();
    post({ type: 'event', event_name: view, metadata: viewMetadata() });
  }
  // A form submit that cannot be sent twice; the button keeps focus (aria-disabled, not disabled).
  function busyButton(btn, busyText) {
    var idle = btn.textContent;
    return {
      busy: false,
      start: function () { this.busy = true; btn.setAttribute('aria-disabled', 'true'); btn.textContent = busyText; },
      stop: function () { this.busy = false; btn.removeAttribute('aria-disabled'); btn.textContent = idle; }
    };
  }
  function inlineError(box, error, input) {
    box.textContent = error.message;
    if (input) {
      input.setAttribute('aria-invalid', 'true');
      input.setAttribute('aria-describedby', box.id);
      input.focus();
    }
  }

  function consent() {
    show('CONSENT', function (s) {
      if (session.mode === 'update') {
        var inst = state.institution;
        s.append(
          icon('info'),
          heading('Reconnect your ' + inst.name + ' account'),
          para(client + ' uses Fincore to connect your accounts. Your connection to ' + inst.name +
            ' needs attention: sign in again to reconnect it. Your existing connection is kept.', 'lead'),
          el('div', { className: 'chip' }, [avatar(inst), el('span', { text: inst.name })])
        );
      } else {
        s.append(
          icon('info'),
          heading(client + ' uses Fincore to connect your accounts'),
          el('ul', { className: 'points' }, [
            el('li', null, [el('span', { className: 'dot', 'aria-hidden': 'true', text: '1' }), el('div', null, [
              el('strong', { text: 'Secure' }),
              el('span', { text: 'Your credentials are encrypted and never shared with ' + client + '.' })])]),
            el('li', null, [el('span', { className: 'dot', 'aria-hidden': 'true', text: '2' }), el('div', null, [
              el('strong', { text: 'Private' }),
              el('span', { text: client + ' only gets the data you agree to share: ' + productsText() + '.' })])])
          ])
        );
      }
      s.append(
        el('div', { className: 'spacer' }),
        el('div', { className: 'actions' }, [button('Continue', 'primary', function () {
          if (state.fixed) credentials(); else institutions();
        })]),
        para('By selecting Continue you agree to share your ' + productsText() + ' data with ' + client + '.', 'footer')
      );
    });
  }

  function institutions() {
    var seq = 0;
    var timer = null;
    show('SELECT_INSTITUTION', function (s) {
      var screen = state.screen;
      function current(mine) { return mine === seq && screen === state.screen; }
      var search = field('fc-search', 'Search institutions', {
        type: 'search', autocomplete: 'off', spellcheck: 'false', maxlength: '120',
        placeholder: 'Bank, card, app or exchange', 'aria-controls': 'fc-results'
      });
      var type = selectField('fc-type', 'Type', [['', 'All types']].concat(cfg.types.map(function (t) {
        return [t, TYPE_LABELS[t] || t];
      })));
      var country = selectField('fc-country', 'Country', [['', 'All countries']].concat(cfg.countries.map(function (c) {
        return [c, countryName(c)];
      }).sort(function (a, b) { return a[1].localeCompare(b[1]); })));
      var status = el('p', { id: 'fc-results-status', className: 'status', role: 'status', 'aria-live': 'polite' });
      var box = alertBox('fc-search-error');
      var list = el('ul', { id: 'fc-results', className: 'results', 'aria-label': 'Institutions' });

      function choose(inst) {
        clearTimeout(timer);
        state.institution = inst;
        credentials();
      }
      function render(found) {
        var usable = found.filter(function (inst) {
          return session.products.every(function (p) { return inst.products.indexOf(p) !== -1; });
        });
        list.replaceChildren.apply(list, usable.map(function (inst) {
          var sub = (TYPE_LABELS[inst.type] || inst.type) + ' \u00b7 ' + inst.country_codes.slice(0, 3).map(countryName).join(', ') +
            (inst.country_codes.length > 3 ? ' +' + (inst.country_codes.length - 3) : '');
          return el('li', null, [el('button', { type: 'button', onClick: function () { choose(inst); } }, [
            avatar(inst),
            el('span', { className: 'inst-text' }, [el('span', { className: 'inst-name', text: inst.name }), el('span', { className: 'inst-sub', text: sub })])
          ])]);
        }));
        status.textContent = usable.length === 0 ? 'No institutions match. Try another name or filter.'
          : usable.length + (usable.length === 1 ? ' institution' : ' institutions');
      }
      function run() {
        clearTimeout(timer);
        var mine = ++seq;
        var body = { query: search.input.value.trim().slice(0, 120) };
        if (type.select.value) body.types = [type.select.value];
        if (country.select.value) body.country_codes = [country.select.value];
        list.setAttribute('aria-busy', 'true');
        api('institutions', body).then(function (res) {
          if (!current(mine)) return;
          list.removeAttribute('aria-busy');
          box.textContent = '';
          render(res.institutions);
        }, function (error) {
          if (!current(mine)) return;
          list.removeAttribute('aria-busy');
          if (isFatal(error)) return fatal(error);
          box.textContent = error.message;
        });
      }
      search.input.addEventListener('input', function () {
        clearTimeout(timer);
        timer = setTimeout(run, 200);
      });
      search.input.addEventListener('keydown', function (e) {
        if (e.key === 'Enter') { e.preventDefault(); run(); }
      });
      type.select.addEventListener('change', run);
      country.select.addEventListener('change', run);

      s.append(
        heading('Select your institution'),
        search.wrap,
        el('div', { className: 'filters' }, [type.wrap, country.wrap]),
        box,
        status,
        list
      );
      run();
    });
  }

  function credentials() {
    var inst = state.institution;
    show('CREDENTIALS', function (s) {
      var box = alertBox('fc-credentials-error');
      var user = field('fc-username', 'Username', { type: 'text', autocomplete: 'username', autocapitalize: 'none', spellcheck: 'false', maxlength: '200' });
      var pass = field('fc-password', 'Password', { type: 'password', autocomplete: 'current-password', maxlength: '200' });
      var submit = button('Submit', 'primary', null, 'submit');
      var busy = busyButton(submit, 'Connecting\u2026');
      var form = el('form', { novalidate: true, 'aria-describedby': session.environment === 'test' ? 'fc-sandbox-hint' : null }, [
        box,
        user.wrap,
        pass.wrap,
        session.environment === 'test' ? el('p', { id: 'fc-sandbox-hint', className: 'hint', text: 'Sandbox: user_good / pass_good' }) : null,
        el('div', { className: 'actions' }, [
          submit,
          state.fixed ? null : button('Back', 'secondary', function () { if (!busy.busy) institutions(); })
        ])
      ]);
      form.addEventListener('submit', function (e) {
        e.preventDefault();
        if (busy.busy) return;
        if (!user.input.value || !pass.input.value) {
          inlineError(box, { message: 'Enter your username and password.' }, user.input.value ? pass.input : user.input);
          return;
        }
        busy.start();
        box.textContent = '';
        api('connect', { institution_id: inst.institution_id, username: user.input.value, password: pass.input.value }).then(step, function (error) {
          busy.stop();
          if (isFatal(error)) return fatal(error);
          pass.input.value = '';
          inlineError(box, error, pass.input);
        });
      });
      s.append(
        el('div', { className: 'chip' }, [avatar(inst), el('span', { text: inst.name })]),
        heading('Sign in to ' + inst.name),
        para('Enter the username and password you use for ' + inst.name + '. ' + client + ' never sees them.'),
        form
      );
    });
  }

  function mfa(prompt) {
    show('MFA', function (s) {
      var box = alertBox('fc-mfa-error');
      var code = field('fc-code', 'Verification code', { type: 'text', inputmode: 'numeric', autocomplete: 'one-time-code', maxlength: '16' });
      var submit = button('Submit', 'primary', null, 'submit');
      var busy = busyButton(submit, 'Checking\u2026');
      var form = el('form', { novalidate: true }, [box, code.wrap, el('div', { className: 'actions' }, [submit])]);
      form.addEventListener('submit', function (e) {
        e.preventDefault();
        if (busy.busy) return;
        if (!code.input.value.trim()) {
          inlineError(box, { message: 'Enter the code.' }, code.input);
          return;
        }
        busy.start();
        box.textContent = '';
        api('mfa', { code: code.input.value.trim() }).then(step, function (error) {
          busy.stop();
          if (isFatal(error)) return fatal(error);
          code.input.value = '';
          inlineError(box, error, code.input);
        });
      });
      s.append(icon('info'), heading('Enter your verification code'), para(prompt), form);
    });
  }

  function step(res) {
    if (res.status === 'mfa_required') return mfa(res.mfa.prompt);
    state.result = res;
    state.institution = res.metadata.institution;
    connected();
  }

  function connected() {
    var res = state.result;
    show('CONNECTED', function (s) {
      s.append(
        icon('ok'),
        heading('Account connected'),
        para('Your ' + res.metadata.institution.name + ' account is now connected to ' + client + '.', 'lead')
      );
      if (res.metadata.accounts.length) {
        s.append(el('ul', { className: 'accounts', 'aria-label': 'Connected accounts' }, res.metadata.accounts.map(function (a) {
          return el('li', null, [el('span', { text: a.name }), el('span', { className: 'mask', text: '\u2022\u2022\u2022\u2022 ' + a.mask })]);
        })));
      }
      s.append(el('div', { className: 'spacer' }), el('div', { className: 'actions' }, [button('Continue', 'primary', finish)]));
    });
  }

  function finish() {
    var res = state.result;
    if (cfg.embed) {
      post({ type: 'success', public_token: res.public_token, metadata: res.metadata });
      return done('Connected', 'You can return to ' + client + '.');
    }
    if (res.redirect_url && /^https?:\/\//i.test(res.redirect_url)) {
      window.location.assign(res.redirect_url);
      return;
    }
    done('You\u2019re all set', 'You can close this window and return to ' + client + '.');
  }

  function fatal(error) {
    state.error = error;
    show('ERROR', function (s) {
      s.append(
        icon('warn'),
        heading(FATAL_TITLES[error.code]),
        para(error.message, 'lead'),
        para(FATAL_NEXT[error.code]),
        para('Error code: ' + error.code + (error.request_id ? ' \u00b7 Reference: ' + error.request_id : ''), 'code'),
        el('div', { className: 'spacer' }),
        el('div', { className: 'actions' }, [button('Exit', 'primary', function () { exit(error); })])
      );
    });
  }

  function exit(error) {
    if (cfg.embed) {
      post({ type: 'exit', error: error ? publicError(error) : null, metadata: viewMetadata() });
      return done('Link closed', 'You can return to ' + client + '.');
    }
    if (session.redirect_uri && /^https?:\/\//i.test(session.redirect_uri)) {
      var url = new URL(session.redirect_uri);
      if (error) {
        url.searchParams.set('error_type', error.type);
        url.searchParams.set('error_code', error.code);
      }
      url.searchParams.set('link_session_id', session.link_session_id);
      window.location.assign(url.toString());
      return;
    }
    done('You can close this window', 'Return to ' + client + ' to try again.');
  }

  function done(title, text) {
    show('DONE', function (s) { s.append(heading(title), para(text, 'lead')); });
  }

  // Closing the modal (Escape here, or the SDK's Close button / Escape in the host page, which ask
  // through postMessage): a finished connection still hands over its public token; otherwise exit,
  // with the error when one ended the flow.
  function requestClose() {
    if (state.view === 'DONE') return;
    if (state.view === 'CONNECTED') return finish();
    exit(state.view === 'ERROR' ? state.error : null);
  }
  if (cfg.embed) {
    // The SDK focuses the iframe once it loads; a focus() made before that does not stick, so the
    // current screen's heading takes focus when the frame receives it.
    window.addEventListener('focus', function () {
      if (!document.activeElement || document.activeElement === document.body) {
        var h1 = root.querySelector('h1');
        if (h1) h1.focus();
      }
    });
    document.addEventListener('keydown', function (e) {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      requestClose();
    });
    window.addEventListener('message', function (e) {
      if (e.source !== window.parent || e.origin !== cfg.parentOrigin) return;
      var data = e.data;
      if (data && data.source === 'fincore-link-sdk' && data.type === 'close') requestClose();
    });
  }
  consent();
})();
`;
