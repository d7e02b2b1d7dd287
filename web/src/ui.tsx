/** Shared pieces: data loading, form fields with the server's messages, book rows. */
import { type FormEvent, type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import { ApiFailure, money } from '#web/api.ts';
import type { Book } from '#web/books.ts';
import { Thumbnail } from '#web/photos.tsx';

export interface Loaded<T> {
  data?: T | undefined;
  error?: ApiFailure | undefined;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` on mount and when `deps` change; `reload()` runs it again. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiFailure; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names the dependencies
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) =>
        live &&
        setState({
          error: error instanceof ApiFailure ? error : new ApiFailure(0, undefined, new Response()),
          loading: false,
        }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

/**
 * Runs an action, keeping its error and a busy flag for the button; `succeeded` runs after each
 * action that succeeds (e.g. the reload of the list it changed).
 */
export function useAction(succeeded?: () => void) {
  const [error, setError] = useState<ApiFailure | undefined>();
  const [busy, setBusy] = useState(false);
  const after = useRef(succeeded);
  after.current = succeeded;
  const run = useCallback(async (action: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (err) {
      setError(err instanceof ApiFailure ? err : new ApiFailure(0, undefined, new Response()));
      return false;
    } finally {
      setBusy(false);
    }
    after.current?.();
    return true;
  }, []);
  return { error, busy, run, setError };
}

/** A button that runs `action` through `act` (keeping its error); with `confirm`, once the visitor agrees. */
export function ActionButton({
  act,
  action,
  confirm,
  className,
  children,
}: {
  act: ReturnType<typeof useAction>;
  action: () => Promise<unknown>;
  /** the question to agree to first */
  confirm?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={className}
      onClick={() => (!confirm || window.confirm(confirm)) && act.run(action)}
    >
      {children}
    </button>
  );
}

/**
 * A form's submit handler: runs `action` (the page is not reloaded), keeping its error, a busy
 * flag and whether the last submit succeeded (`done`, for a "Saved." line).
 */
export function useSubmit(action: () => Promise<unknown>) {
  const { error, busy, run } = useAction();
  const [done, setDone] = useState(false);
  const submit = async (e?: FormEvent): Promise<boolean> => {
    e?.preventDefault();
    setDone(false);
    const ok = await run(action);
    setDone(ok);
    return ok;
  };
  return { error, busy, done, submit };
}

/** A form's text fields: `set(name)` is the onChange of one field, `reset()` empties the form. */
export function useFields<F extends Record<string, string>>(initial: F) {
  const [form, setForm] = useState(initial);
  const set = (k: keyof F) => (v: string) => setForm((f) => ({ ...f, [k]: v }));
  /** A Field's name, value, onChange and the error's message for it: `<Field {...bind('name', error)} />`. */
  const bind = <K extends keyof F & string>(k: K, error: ApiFailure | undefined) => ({
    name: k,
    value: form[k],
    onChange: set(k),
    error: error?.field(k),
  });
  return { form, set, bind, reset: () => setForm(initial) };
}

export function ErrorNote({ error }: { error: ApiFailure | undefined }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {error.message}
    </p>
  );
}

/** A form's last error and its submit button, disabled while the form is busy. */
export function Submit({
  error,
  busy,
  children,
}: {
  error: ApiFailure | undefined;
  busy: boolean;
  children: ReactNode;
}) {
  return (
    <>
      <ErrorNote error={error} />
      <button type="submit" disabled={busy}>
        {children}
      </button>
    </>
  );
}

/** A form whose fields end with its last error and its submit button (`button`), disabled while busy. */
export function Form({
  error,
  busy,
  button,
  children,
  ...form
}: {
  onSubmit: (e: FormEvent) => unknown;
  error: ApiFailure | undefined;
  busy: boolean;
  button: ReactNode;
  children: ReactNode;
  noValidate?: boolean;
}) {
  return (
    <form {...form}>
      {children}
      <Submit error={error} busy={busy}>
        {button}
      </Submit>
    </form>
  );
}

/**
 * A section under an `h2` that `id` names, showing what it `loaded`: its error (else `error`, of an
 * action taken in the section), `empty` when it is an empty list, then the rest.
 */
export function Section({
  id,
  title,
  loaded,
  error,
  empty,
  children,
}: {
  id: string;
  title: ReactNode;
  loaded?: Pick<Loaded<unknown>, 'data' | 'error'>;
  error?: ApiFailure | undefined;
  empty?: string;
  children?: ReactNode;
}) {
  const data = loaded?.data;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ErrorNote error={loaded?.error ?? error} />
      {Array.isArray(data) && data.length === 0 && <p>{empty}</p>}
      {children}
    </section>
  );
}

/**
 * A table with a column for each entry of `columns` (its heading, and its cell of a row), a row
 * for each of `rows`. A table wider than a phone scrolls inside its own region, named
 * "`label` table", which keyboard users can focus and scroll (WCAG 2.1.1; axe's
 * scrollable-region-focusable).
 */
export function Table<T extends { id: string }>({
  label,
  rows,
  columns,
}: {
  label: string;
  rows: T[] | undefined;
  columns: Record<string, (row: T) => ReactNode>;
}) {
  const cells = Object.entries(columns);
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to be scrolled by keyboard
    <section className="table-scroll" aria-label={`${label} table`} tabIndex={0}>
      <table>
        <thead>
          <tr>
            {cells.map(([heading]) => (
              <th key={heading} scope="col">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows?.map((row) => (
            <tr key={row.id}>
              {cells.map(([heading, cell]) => (
                <td key={heading}>{cell(row)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function Loading({ what }: { what: string }) {
  return <p aria-live="polite">Loading {what}…</p>;
}

export function Field({
  label,
  name,
  error,
  type = 'text',
  value,
  onChange,
  required,
  autoComplete,
  multiline,
  hint,
  options,
  labels,
  ...rest
}: {
  label: string;
  name: string;
  error?: string | undefined;
  type?: string;
  value: string;
  onChange: (v: string) => void;
  required?: boolean;
  autoComplete?: string;
  multiline?: boolean;
  hint?: string;
  options?: string[];
  /** what each option shows, when not its value */
  labels?: Record<string, string>;
  min?: number;
  step?: string;
}) {
  const id = useId();
  const errId = `${id}-error`;
  const common = {
    id,
    name,
    value,
    required,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errId : undefined,
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint && <small>{hint}</small>}
      {multiline ? (
        <textarea {...common} onChange={(e) => onChange(e.target.value)} rows={3} />
      ) : options ? (
        <select {...common} onChange={(e) => onChange(e.target.value)}>
          {options.map((o) => (
            <option key={o} value={o}>
              {labels?.[o] ?? o}
            </option>
          ))}
        </select>
      ) : (
        <input
          {...common}
          {...rest}
          type={type}
          autoComplete={autoComplete}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      {error && (
        <span className="field-error" id={errId}>
          {error}
        </span>
      )}
    </div>
  );
}

/** The e-mail address field of the account forms. */
export const EMAIL_FIELD = {
  name: 'emailAddress',
  label: 'E-mail',
  type: 'email',
  autoComplete: 'username',
  required: true,
} as const;

/** A password field: the `current` one (log in, confirm) or a `new` one. */
export const passwordField = (label: string, kind: 'current' | 'new', name = 'password') =>
  ({ name, label, type: 'password', autoComplete: `${kind}-password`, required: true }) as const;

export const STATUS_LABELS: Record<number, string> = {
  0: 'Listed',
  1: 'Bought, waiting for the hand-over check',
  2: 'Condition verified, buyer charged',
  3: 'Delivered, seller paid',
  5: 'Unlisted',
};

/** What a book row shows: the listing's book type, generated from the API document. */
export type BookLike = Pick<
  Book,
  'id' | 'name' | 'edition' | 'course' | 'price' | 'condition' | 'comments' | 'ISBN' | 'owner'
> & { photos?: { id: string; url: string; thumbnailUrl: string }[] };

export function BookSummary({ book, children }: { book: BookLike; children?: ReactNode }) {
  return (
    <article className="book" aria-labelledby={`book-${book.id}`}>
      <Thumbnail name={book.name} photos={book.photos} />
      <h3 id={`book-${book.id}`}>
        {book.name} <span className="muted">(edition {book.edition})</span>
      </h3>
      <p>
        <strong>{money(book.price)}</strong> · {book.course} · {book.condition}
        {book.ISBN ? ` · ISBN ${book.ISBN}` : ''} · sold by {book.owner.firstName}
      </p>
      {book.comments && <p className="muted">{book.comments}</p>}
      {children}
    </article>
  );
}

/** A list of book rows: `children` adds a book's own lines and buttons, `inactive` greys its row. */
export function BookList<B extends BookLike & { status?: number }>({
  books,
  status,
  inactive,
  busy,
  children,
}: {
  books: B[] | undefined;
  /** shows each book's status first */
  status?: boolean;
  inactive?: (book: B) => boolean;
  /** said while the list shown is about to be replaced */
  busy?: boolean;
  children?: (book: B) => ReactNode;
}) {
  return (
    <ul className="books" aria-busy={busy}>
      {books?.map((b) => (
        <li key={b.id} className={inactive?.(b) ? 'inactive' : undefined}>
          <BookSummary book={b}>
            {status && b.status !== undefined && <p>Status: {STATUS_LABELS[b.status]}</p>}
            {children?.(b)}
          </BookSummary>
        </li>
      ))}
    </ul>
  );
}

/** The amounts of a cart or an order, as the service computed them. */
export function Amounts({ amounts }: { amounts: { subtotal: number; fee: number; total: number } }) {
  return (
    <dl className="details">
      <dt>Subtotal</dt>
      <dd>{money(amounts.subtotal)}</dd>
      <dt>Service fee (5 %)</dt>
      <dd>{money(amounts.fee)}</dd>
      <dt>Total</dt>
      <dd>{money(amounts.total)}</dd>
    </dl>
  );
}

const PROGRESS = [
  [1, 'Bought'],
  [2, 'Verified and charged'],
  [3, 'Delivered and paid'],
] as const;

/** A purchased book's progress: bought, verified and charged, delivered and paid. */
export function Progress({ status }: { status: number }) {
  return (
    <ol className="progress" aria-label="Progress">
      {PROGRESS.map(([s, label]) => (
        <li
          key={s}
          aria-current={status === s ? 'step' : undefined}
          className={status >= s ? 'done' : undefined}
        >
          {label}
        </li>
      ))}
    </ol>
  );
}
