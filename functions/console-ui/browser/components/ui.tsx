// The console's building blocks. Accessibility rules they keep for every page: one h1 per page,
// focused when the page appears (a screen reader announces where the user landed); every control
// has a visible label; async results are announced through one polite live region, errors through
// role="alert"; a button the member's role cannot use stays focusable (aria-disabled) and says why
// next to it; dialogs are native <dialog> elements opened modal (focus stays inside, Escape closes)
// that give focus back to what opened them.
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  type ButtonHTMLAttributes,
  type DependencyList,
  type InputHTMLAttributes,
  type ReactNode,
} from 'react';
import { asApiError, type ConsoleApiError } from '../api';
import { formatDateTime } from '../format';
import type { UiPermission } from '../permissions';

// ---------- announcements ----------

const AnnounceContext = createContext<(message: string) => void>(() => undefined);

/** One polite live region for the whole app: "Key created", "Loaded 20 requests", ... */
export function AnnouncerProvider({ children }: { children: ReactNode }) {
  const [message, setMessage] = useState('');
  const announce = useCallback((text: string) => {
    // Cleared first so the same message twice is announced twice.
    setMessage('');
    window.setTimeout(() => setMessage(text), 50);
  }, []);
  return (
    <AnnounceContext.Provider value={announce}>
      {children}
      <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-testid="announcer">
        {message}
      </div>
    </AnnounceContext.Provider>
  );
}

export function useAnnounce(): (message: string) => void {
  return useContext(AnnounceContext);
}

// ---------- pages ----------

/** The page's h1 (focused on arrival) and the document title. */
export function PageTitle({ title, context }: { title: string; context?: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title}${context ? ` · ${context}` : ''} · Fincore console`;
    heading.current?.focus();
  }, [title, context]);
  return (
    <div className="page-title">
      <h1 ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {context ? <p className="page-context">{context}</p> : null}
    </div>
  );
}

// ---------- async data ----------

export type Loaded<T> =
  | { state: 'loading'; data: T | null; error: null }
  | { state: 'ready'; data: T; error: null }
  | { state: 'failed'; data: T | null; error: ConsoleApiError };

/** Loads on mount and whenever `deps` change; `reload` runs it again. Stale answers are dropped. */
export function useLoad<T>(load: () => Promise<T>, deps: DependencyList): Loaded<T> & { reload: () => void } {
  const [result, setResult] = useState<Loaded<T>>({ state: 'loading', data: null, error: null });
  const [round, setRound] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const ticket = ++latest.current;
    setResult((previous) => ({ state: 'loading', data: previous.data, error: null }));
    load().then(
      (data) => {
        if (ticket === latest.current) setResult({ state: 'ready', data, error: null });
      },
      (err: unknown) => {
        if (ticket === latest.current) setResult((previous) => ({ state: 'failed', data: previous.data, error: asApiError(err) }));
      },
    );
    // `load` is a new closure on every render: `deps` says when it loads something else.
  }, [...deps, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { ...result, reload };
}

export type Outcome<R> = { ok: true; value: R } | { ok: false; error: ConsoleApiError };

/** A running action: `busy` while it runs, `error` when it failed (cleared when it runs again). */
export function useAction<A extends unknown[], R>(run: (...args: A) => Promise<R>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ConsoleApiError | null>(null);
  const execute = async (...args: A): Promise<Outcome<R>> => {
    setBusy(true);
    setError(null);
    try {
      return { ok: true, value: await run(...args) };
    } catch (err) {
      const failure = asApiError(err);
      setError(failure);
      return { ok: false, error: failure };
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, execute, clearError: () => setError(null) };
}

export function Loading({ what }: { what: string }) {
  return <p className="muted">Loading {what}…</p>;
}

// ---------- errors ----------

function errorTitle(error: ConsoleApiError): string {
  switch (error.code) {
    case 'role_forbidden':
      return 'Your role does not allow this';
    case 'live_access_not_in_plan':
      return 'The plan does not include live access';
    case 'last_owner':
      return 'An organisation keeps at least one owner';
    case 'organization_not_empty':
      return 'The organisation still has items';
    case 'csrf_failed':
      return 'The page is out of date';
    case 'network_error':
      return 'No connection';
    case 'invalid_credentials':
    case 'console_invalid_credentials':
      return 'Sign-in failed';
    case 'invitation_expired':
      return 'This invitation can no longer be used';
    default:
      if (error.status === 429) return 'Too many attempts';
      return error.status === 404 ? 'Not found' : 'Something went wrong';
  }
}

/**
 * An error envelope as the user needs it: what happened, the server's message, and the request id
 * to quote (support finds the request by it). role_forbidden says plainly that the server refused.
 */
export function ErrorNotice({ error, action }: { error: ConsoleApiError; action?: ReactNode }) {
  return (
    <div className="notice notice-error" role="alert" data-error-code={error.code}>
      <p className="notice-title">{errorTitle(error)}</p>
      <p>
        {error.code === 'role_forbidden' ? 'The server refused this action for your role: ' : null}
        {error.message}
        {error.retryAfter ? ` Try again in ${error.retryAfter} seconds.` : null}
        {error.code === 'csrf_failed' ? ' Reload the page and try again.' : null}
      </p>
      <p className="notice-meta">
        Error code <code>{error.code}</code>
        {error.requestId ? (
          <>
            {' · '}Request ID <code data-testid="error-request-id">{error.requestId}</code>
          </>
        ) : null}
      </p>
      {action}
    </div>
  );
}

export function Notice({ tone, title, children }: { tone: 'info' | 'warning' | 'success'; title?: string; children: ReactNode }) {
  return (
    <div className={`notice notice-${tone}`}>
      {title ? <p className="notice-title">{title}</p> : null}
      {children}
    </div>
  );
}

// ---------- buttons ----------

type ButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> & {
  variant?: 'primary' | 'secondary' | 'danger';
  type?: 'button' | 'submit';
};

export function Button({ variant = 'secondary', type = 'button', className, ...rest }: ButtonProps) {
  return <button type={type} className={`button button-${variant}${className ? ` ${className}` : ''}`} {...rest} />;
}

/**
 * A button for a console action. When the member's role cannot perform it, the button stays in
 * the tab order but does nothing (aria-disabled), and the reason is written next to it and tied to
 * it with aria-describedby.
 */
export function ActionButton({ permission, busy, onClick, children, ...rest }: ButtonProps & { permission: UiPermission; busy?: boolean }) {
  const reasonId = useId();
  const denied = !permission.allowed;
  return (
    <span className="action">
      <Button
        {...rest}
        aria-disabled={denied || busy ? true : undefined}
        aria-describedby={denied ? reasonId : rest['aria-describedby']}
        onClick={(event) => {
          if (denied || busy) {
            event.preventDefault();
            return;
          }
          onClick?.(event);
        }}
      >
        {children}
      </Button>
      {denied ? (
        <span id={reasonId} className="hint role-hint">
          {permission.why}
        </span>
      ) : null}
    </span>
  );
}

// ---------- forms ----------

type FieldProps = InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string };

export function Field({ label, hint, id, ...input }: FieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const hintId = `${inputId}-hint`;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      {hint ? (
        <span className="hint" id={hintId}>
          {hint}
        </span>
      ) : null}
      <input id={inputId} aria-describedby={hint ? hintId : undefined} {...input} />
    </div>
  );
}

export function SelectField({
  label,
  value,
  onChange,
  options,
  hint,
  hideLabel,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: ReadonlyArray<{ value: string; label: string }>;
  hint?: string;
  /** For a select in a table row, whose column header already says what it is (the label stays for screen readers). */
  hideLabel?: boolean;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id} className={hideLabel ? 'visually-hidden' : undefined}>
        {label}
      </label>
      {hint ? (
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} aria-describedby={hint ? `${id}-hint` : undefined}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

// ---------- dialogs ----------

/**
 * A modal dialog (native <dialog>, opened with showModal: the rest of the page is inert, Escape
 * closes). Focus goes to the first field or button inside, and back to the opener on close.
 */
export function Modal({ title, open, onClose, children, description }: { title: string; open: boolean; onClose: () => void; children: ReactNode; description?: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const titleId = useId();
  const descriptionId = useId();
  useEffect(() => {
    const node = dialog.current;
    if (!node) return;
    if (open && !node.open) {
      opener.current = document.activeElement;
      node.showModal();
      const first = node.querySelector<HTMLElement>('input:not([type=hidden]), select, textarea, button:not([aria-disabled=true])');
      first?.focus();
    } else if (!open && node.open) {
      node.close();
    }
  }, [open]);
  useEffect(() => {
    const node = dialog.current;
    if (!node) return undefined;
    const closed = () => {
      const back = opener.current;
      if (back instanceof HTMLElement && back.isConnected) back.focus();
      onClose();
    };
    node.addEventListener('close', closed);
    return () => node.removeEventListener('close', closed);
  }, [onClose]);
  return (
    <dialog ref={dialog} className="dialog" aria-labelledby={titleId} aria-describedby={description ? descriptionId : undefined}>
      {open ? (
        <>
          <h2 id={titleId} className="dialog-title">
            {title}
          </h2>
          {description ? <p id={descriptionId}>{description}</p> : null}
          {children}
        </>
      ) : null}
    </dialog>
  );
}

/** Asks before an action that cannot be undone; the action's error is shown inside the dialog. */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  danger,
  onConfirm,
  onClose,
  error,
  busy,
  children,
}: {
  open: boolean;
  title: string;
  description: string;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  error?: ConsoleApiError | null;
  busy?: boolean;
  children?: ReactNode;
}) {
  return (
    <Modal title={title} open={open} onClose={onClose} description={description}>
      {children}
      {error ? <ErrorNotice error={error} /> : null}
      <div className="dialog-actions">
        <Button variant={danger ? 'danger' : 'primary'} onClick={onConfirm} aria-disabled={busy ? true : undefined}>
          {busy ? 'Working…' : confirmLabel}
        </Button>
        <Button onClick={onClose}>Cancel</Button>
      </div>
    </Modal>
  );
}

/** Copies text to the clipboard and says whether it worked (in words, announced). */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const announce = useAnnounce();
  return (
    <>
      <Button
        onClick={() => {
          navigator.clipboard.writeText(text).then(
            () => {
              setState('copied');
              announce('Copied to the clipboard.');
            },
            () => {
              setState('failed');
              announce('Copying failed: select the text and copy it yourself.');
            },
          );
        }}
      >
        {label}
      </Button>
      <span className="hint copy-state">{state === 'copied' ? 'Copied.' : state === 'failed' ? 'Copy failed: select the text and copy it yourself.' : ''}</span>
    </>
  );
}

/** A secret shown this one time: a read-only field to select or copy, and the warning. */
export function ShownOnce({ label, value, warning }: { label: string; value: string; warning: string }) {
  const id = useId();
  return (
    <div className="shown-once">
      <div className="notice notice-warning">
        <p className="notice-title">Shown only once</p>
        <p>{warning}</p>
      </div>
      <label htmlFor={id}>{label}</label>
      <div className="secret-row">
        <input id={id} className="secret" readOnly value={value} onFocus={(e) => e.currentTarget.select()} spellCheck={false} data-testid="shown-once-value" />
        <CopyButton text={value} />
      </div>
    </div>
  );
}

// ---------- display ----------

export function Time({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span>—</span>;
  return <time dateTime={iso}>{formatDateTime(iso)}</time>;
}

const STATUS_TONES: Record<string, 'good' | 'bad' | 'neutral' | 'warn'> = {
  active: 'good',
  delivered: 'good',
  allowed: 'good',
  accepted: 'good',
  revoked: 'neutral',
  cancelled: 'neutral',
  expired: 'neutral',
  pending: 'warn',
  dead_lettered: 'bad',
  denied: 'bad',
};

export function StatusBadge({ status, label }: { status: string; label?: string }) {
  return <span className={`badge badge-${STATUS_TONES[status] ?? 'neutral'}`}>{label ?? status.replace(/_/g, ' ')}</span>;
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/**
 * Where a data table scrolls sideways when it is wider than the screen, instead of widening the
 * whole page (reflow on a phone exempts data tables, not the page around them). While it scrolls it
 * is a named region with a tab stop, so a keyboard can scroll it too; when the table fits, it is
 * neither, and a wide screen gets no tab stop that does nothing.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = box.current;
    if (!element) return undefined;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth + 1);
    measure();
    // The box changes with the window, the table with its rows.
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={box} className="table-scroll" {...(scrolls ? { role: 'region', 'aria-label': label, tabIndex: 0 } : {})}>
      {children}
    </div>
  );
}
