/** Sign-up, confirmation, login, password reset: the pages that work without a session. */
import { useState } from 'react';
import { api, call } from '#web/api.ts';
import { Link, navigate, useLocation } from '#web/router.tsx';
import { setSession } from '#web/session.ts';
import {
  EMAIL_FIELD,
  ErrorNote,
  Field,
  Form,
  passwordField,
  Submit,
  useFields,
  useSubmit,
} from '#web/ui.tsx';

const SIGNUP_FIELDS = [
  ['emailAddress', 'University e-mail (.edu)', 'email', 'email'],
  ['password', 'Password (8 to 72 characters)', 'password', 'new-password'],
  ['firstName', 'First name', 'text', 'given-name'],
  ['lastName', 'Last name', 'text', 'family-name'],
  ['university', 'University', 'text', 'organization'],
  ['campusMailbox', 'Campus mailbox', 'text', 'off'],
  ['paymentUsername', 'Payment username (e.g. Venmo)', 'text', 'off'],
] as const;

type SignupForm = Record<(typeof SIGNUP_FIELDS)[number][0], string>;

export function SignupPage() {
  const { form, bind } = useFields<SignupForm>({
    emailAddress: '',
    password: '',
    firstName: '',
    lastName: '',
    university: '',
    campusMailbox: '',
    paymentUsername: '',
  });
  const signup = useSubmit(() => call(api.POST('/api/auth/signup', { body: form })));
  const resend = useSubmit(() =>
    call(api.POST('/api/auth/resendConfirmation', { body: { emailAddress: form.emailAddress } })),
  );
  const { error, busy, submit } = signup;
  if (signup.done)
    return (
      <section>
        <h1>Check your e-mail</h1>
        <p>
          We sent a confirmation link to <strong>{form.emailAddress}</strong>. Open it within 24 hours and
          confirm with the password you just chose.
        </p>
        <p>
          <button type="button" onClick={() => resend.submit()} disabled={resend.busy}>
            Resend the e-mail
          </button>
        </p>
        {resend.done && <p role="status">Sent again. Check your inbox (and the spam folder).</p>}
        <ErrorNote error={resend.error} />
      </section>
    );
  return (
    <section>
      <h1>Sign up</h1>
      <form onSubmit={submit} noValidate>
        {SIGNUP_FIELDS.map(([name, label, type, autoComplete]) => (
          <Field
            key={name}
            {...bind(name, error)}
            label={label}
            type={type}
            autoComplete={autoComplete}
            required
          />
        ))}
        <p>
          By signing up you accept the <Link href="/terms">terms of use</Link> and the{' '}
          <Link href="/privacy">privacy notice</Link>.
        </p>
        <Submit error={error} busy={busy}>
          Sign up
        </Submit>
      </form>
      <p>
        Already signed up? <Link href="/login">Log in</Link>.
      </p>
    </section>
  );
}

/** The page the e-mailed link opens: `/confirm?token=...` (or `/confirm/<token>`). */
export function ConfirmPage() {
  const { path, query } = useLocation();
  const token = query.get('token') ?? decodeURIComponent(path.slice('/confirm/'.length));
  const { form, bind } = useFields({ password: '' });
  const { error, busy, submit } = useSubmit(async () => {
    await call(api.POST('/api/auth/confirm', { body: { token, ...form } }));
    navigate('/email-confirmed', { replace: true });
  });
  if (!token)
    return (
      <section>
        <h1>Confirm your account</h1>
        <p>This link has no confirmation code. Open the link from the e-mail again.</p>
      </section>
    );
  return (
    <section>
      <h1>Confirm your account</h1>
      <Form onSubmit={submit} error={error} busy={busy} button="Confirm my account">
        <p>To confirm that the account is yours, enter the password you chose when you signed up.</p>
        <Field {...passwordField('Password', 'current')} {...bind('password', error)} />
      </Form>
      <p>
        Link expired? <Link href="/signup">Sign up again</Link> to get a new one.
      </p>
    </section>
  );
}

export function LoginPage() {
  const { query } = useLocation();
  const next = query.get('next');
  const [emailAddress, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { error, busy, submit } = useSubmit(async () => {
    const data = await call(api.POST('/api/auth/login', { body: { emailAddress, password } }));
    setSession({ token: data.token, expiresAt: data.expiresAt, firstName: data.user.firstName });
    // Only a path on this site: never an absolute URL from the query.
    navigate(next?.startsWith('/') && !next.startsWith('//') ? next : '/', { replace: true });
  });
  const retryAfter = error?.status === 429 ? error.response.headers.get('Retry-After') : null;
  return (
    <section>
      <h1>Log in</h1>
      {query.get('expired') && <p role="status">Your session has expired. Log in again to continue.</p>}
      <form onSubmit={submit}>
        <Field {...EMAIL_FIELD} value={emailAddress} onChange={setEmail} />
        <Field {...passwordField('Password', 'current')} value={password} onChange={setPassword} />
        {retryAfter ? (
          <p role="alert" className="error">
            Too many attempts: try again in {retryAfter} seconds.
          </p>
        ) : (
          <ErrorNote error={error} />
        )}
        <button type="submit" disabled={busy}>
          Log in
        </button>
      </form>
      <p>
        <Link href="/forgot-password">Forgot your password?</Link> · <Link href="/signup">Sign up</Link>
      </p>
    </section>
  );
}

export function ForgotPage() {
  const { form, bind } = useFields({ emailAddress: '' });
  const {
    error,
    busy,
    done: sent,
    submit,
  } = useSubmit(() => call(api.POST('/api/auth/passwordResetRequest', { body: form })));
  return (
    <section>
      <h1>Forgot password</h1>
      {sent ? (
        <p role="status">
          If {form.emailAddress} has an account, a reset link is on its way. It works for one hour.
        </p>
      ) : (
        <Form onSubmit={submit} error={error} busy={busy} button="Send a reset link">
          <Field {...EMAIL_FIELD} {...bind('emailAddress', error)} />
        </Form>
      )}
    </section>
  );
}

export function ResetPage() {
  const { query } = useLocation();
  const { form, set, bind } = useFields({ token: query.get('token') ?? '', password: '' });
  const { error, busy, done, submit } = useSubmit(() =>
    call(api.POST('/api/auth/passwordReset', { body: form })),
  );
  if (done)
    return (
      <section>
        <h1>Password changed</h1>
        <p role="status">
          Your new password is set; every older session has ended. <Link href="/login">Log in</Link>.
        </p>
      </section>
    );
  return (
    <section>
      <h1>Choose a new password</h1>
      <Form onSubmit={submit} error={error} busy={busy} button="Set the new password">
        {!query.get('token') && (
          <Field
            name="token"
            label="Reset code from the e-mail"
            required
            value={form.token}
            onChange={set('token')}
          />
        )}
        <Field {...passwordField('New password (8 to 72 characters)', 'new')} {...bind('password', error)} />
      </Form>
    </section>
  );
}
