/** Form pieces: fields with the server's messages, the error line, submit and action buttons. */
import { type FormEvent, type KeyboardEvent, type ReactNode, useEffect, useId, useRef } from 'react';
import type { ApiFailure } from '#web/api.ts';
import type { useAction } from '#web/ui/hooks.ts';

export function ErrorNote({
  error,
  withDetails = false,
}: {
  error: ApiFailure | null | undefined;
  /**
   * Say what each refused field was refused for, instead of "The request is invalid.": for a read
   * whose inputs (filters) have no field of their own to show it.
   */
  withDetails?: boolean;
}) {
  if (!error) return null;
  const details = withDetails ? (error.body?.details ?? []).map((d) => d.message).filter(Boolean) : [];
  return (
    <p className="error" role="alert">
      {details.length > 0 ? details.join(' ') : error.message}
    </p>
  );
}

/**
 * A ref that moves the focus to its element when `when` becomes true: after an action the focus
 * goes to its result (a status line, a new heading) instead of dropping to the top of the page.
 */
export function useFocusWhen<T extends HTMLElement>(when: boolean) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (when) ref.current?.focus();
  }, [when]);
  return ref;
}

/**
 * What an action did, in a live status line (`role="status"`, announced) that takes the focus
 * when `focus` (by default as it appears), so the next Tab goes on from the result.
 */
export function StatusLine({ focus = true, children }: { focus?: boolean; children: ReactNode }) {
  const ref = useFocusWhen<HTMLParagraphElement>(focus);
  return (
    <p role="status" tabIndex={-1} ref={ref}>
      {children}
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
  // a refusal that names fields says so at each field: here only where to look, not the service's
  // generic "The request is invalid." under them (QA: it read as a second, vaguer error)
  const atFields = error?.status === 400 && (error.body?.details ?? []).some((d) => d.field);
  return (
    <>
      {atFields ? (
        <p className="error" role="alert">
          Please check what is marked above.
        </p>
      ) : (
        <ErrorNote error={error} />
      )}
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

/** A button that runs `action` through `act` (keeping its error); with `confirm`, once the visitor agrees. */
export function ActionButton({
  act,
  action,
  confirm,
  className,
  disabled,
  children,
}: {
  act: ReturnType<typeof useAction>;
  action: () => Promise<unknown>;
  /** the question to agree to first */
  confirm?: string;
  className?: string;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={className}
      disabled={disabled}
      onClick={() => (!confirm || window.confirm(confirm)) && act.run(action)}
    >
      {children}
    </button>
  );
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
  /** an input's leaving and key handlers (e.g. applying a typed filter) */
  onBlur?: () => void;
  onKeyDown?: (e: KeyboardEvent<HTMLInputElement>) => void;
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
