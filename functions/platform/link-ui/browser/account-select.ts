// The account-selection pane of the Link page: after a connection, the user chooses which of the
// institution's accounts to share (native checkboxes in a fieldset, all preselected for a new item;
// in update mode the current choice). Select all / Select none, a live count, and at least one
// account required before Continue sends the choice (/link/api/accounts/select).
import type { LinkSelectAccountsStep } from '../protocol';
import type { Translate } from '../i18n';
import { alertBox, avatar, button, el, heading, para } from './dom';

export interface AccountSelectionPane {
  /** The pane's content, appended to the screen. */
  nodes: HTMLElement[];
  /** Focuses the first checkbox (after the heading took focus, Tab reaches it anyway). */
  checkboxes: HTMLInputElement[];
}

export interface AccountSelectionOptions {
  t: Translate;
  locale: string;
  client: string;
  step: LinkSelectAccountsStep;
  institution: { name: string; primary_color?: string | null; logo?: string | null };
  update: boolean;
  /** Sends the choice; resolves with an error message to show inline, or null when the flow moved on. */
  submit(accountIds: string[]): Promise<string | null>;
}

function money(locale: string, amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

export function accountSelectionPane(options: AccountSelectionOptions): AccountSelectionPane {
  const { t, step } = options;
  const preselected = new Set(step.selected_account_ids);
  const box = alertBox('fc-select-error');
  const count = el('p', { id: 'fc-select-count', className: 'status', role: 'status', 'aria-live': 'polite' });
  const checkboxes: HTMLInputElement[] = [];
  const rows = step.accounts.map((account, index) => {
    const id = `fc-account-${index}`;
    const input = el('input', { type: 'checkbox', id, name: 'account_ids', value: account.account_id, 'aria-describedby': `${id}-detail` });
    input.checked = preselected.has(account.account_id);
    checkboxes.push(input);
    const detail = [`${account.type} \u00b7 ${account.subtype}`, t('select.mask', { mask: account.mask }), t('select.balance', { amount: money(options.locale, account.balances.current, account.balances.iso_currency_code) })].join(' \u00b7 ');
    return el('li', { className: 'account-choice' }, [
      input,
      el('label', { for: id }, [el('span', { className: 'account-name', text: account.name }), el('span', { id: `${id}-detail`, className: 'account-detail', text: detail })]),
    ]);
  });
  const total = checkboxes.length;
  function chosen(): string[] {
    return checkboxes.filter((c) => c.checked).map((c) => c.value);
  }
  function updateCount(): void {
    const n = chosen().length;
    count.textContent = t(total === 1 ? 'select.countOne' : 'select.countOther', { count: n, total });
    if (n > 0) box.textContent = '';
  }
  for (const c of checkboxes) c.addEventListener('change', updateCount);
  const setAll = (checked: boolean) => () => {
    for (const c of checkboxes) c.checked = checked;
    updateCount();
  };
  const submit = button(t('nav.continue'), 'primary', null, 'submit');
  let busy = false;
  const form = el('form', { novalidate: true }, [
    el('fieldset', { className: 'account-choices' }, [
      el('legend', { text: t('select.legend', { institution: options.institution.name }) }),
      el('div', { className: 'select-tools' }, [button(t('select.all'), 'link', setAll(true)), button(t('select.none'), 'link', setAll(false))]),
      el('ul', { className: 'accounts choices' }, rows),
    ]),
    count,
    box,
    el('div', { className: 'actions' }, [submit]),
  ]);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (busy) return;
    const ids = chosen();
    if (ids.length === 0) {
      box.textContent = t('select.atLeastOne');
      checkboxes[0]?.focus();
      return;
    }
    busy = true;
    submit.setAttribute('aria-disabled', 'true');
    submit.textContent = t('busy.saving');
    const failure = await options.submit(ids);
    if (failure === null) return;
    busy = false;
    submit.removeAttribute('aria-disabled');
    submit.textContent = t('nav.continue');
    box.textContent = failure;
  });
  updateCount();
  const intro = options.update ? t('select.updateText', { client: options.client }) : t('select.text', { client: options.client, institution: options.institution.name });
  return {
    nodes: [el('div', { className: 'chip' }, [avatar(options.institution), el('span', { text: options.institution.name })]), heading(t('select.heading')), para(intro), form],
    checkboxes,
  };
}
