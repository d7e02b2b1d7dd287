/** `/login` and `/confirm` (the e-mailed link's page): the pages that start or confirm an account's session. */
import { useState } from 'react';
import type { operations } from '#web/api.gen.ts';
import { api, call } from '#web/api.ts';
import { sitePath, withNext } from '#web/return-to.ts';
import { Link, navigate, useLocation } from '#web/router.tsx';
import { setSession, useSession } from '#web/session.ts';
import { EMAIL_FIELD, ErrorNote, Field, Form, passwordField } from '#web/ui/form.tsx';
import { useFields, useSubmit } from '#web/ui/hooks.ts';

type LoginBody = operations['authLogin']['requestBody']['content']['application/json'];

/** POST /api/auth/login, and the session it starts (the refresh cookie is set by the answer). */
async function logInWith(body: LoginBody) {
  const data = await call(api.POST('/api/auth/login', { body }));
  setSession({
    token: data.token,
    expiresAt: data.expiresAt,
    firstName: data.user.firstName,
    userId: data.user.id,
  });
}

/**
 * The page the e-mailed link opens: `/confirm?token=...` (or `/confirm/<token>`). Confirming takes
 * the sign-up's password, so the student has just proven both the mailbox and the password: the
 * page logs them in with it at once (the same login as the Log in page, throttles and all), and
 * they land signed in instead of typing the password a second time. Should that login be refused,
 * the account is still confirmed and the next page offers Log in.
 */
export function ConfirmPage() {
  const { path, query } = useLocation();
  const token = query.get('token') ?? decodeURIComponent(path.slice('/confirm/'.length));
  const { form, bind } = useFields({ password: '' });
  const { error, busy, submit } = useSubmit(async () => {
    const user = await call(api.POST('/api/auth/confirm', { body: { token, ...form } }));
    await logInWith({ emailAddress: user.emailAddress, password: form.password }).catch(() => undefined);
    navigate('/email-confirmed', { replace: true });
  });
  // a reopened or replaced link (the service sends it here with what became of it)
  const state = query.get('state');
  if (state === 'confirmed')
    return (
      <section>
        <h1>Your account is already confirmed</h1>
        <p>This link already confirmed your account.</p>
        <p>
          <Link href="/login">Log in</Link> with your address and the password you chose.
        </p>
      </section>
    );
  if (state === 'replaced')
    return (
      <section>
        <h1>This link was replaced</h1>
        <p>
          A newer confirmation link was sent to your address. Open the newest e-mail from Campus Books and use
          its link.
        </p>
      </section>
    );
  if (state === 'invalid' || !token)
    return (
      <section>
        <h1>Confirm your account</h1>
        <p>This link does not work: it is invalid or has expired.</p>
        <p>
          <Link href="/signup">Sign up again</Link> to get a new link.
        </p>
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
  // Only a path on this site: never an absolute URL from the query.
  const next = sitePath(query.get('next'));
  const safeNext = next ?? '/';
  const session = useSession();
  const [emailAddress, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  // the e-mailed unlock link (a lockout of unknown browsers): sent along with the password
  const unlockToken = query.get('unlock') ?? undefined;
  const { error, busy, submit } = useSubmit(async () => {
    await logInWith({
      emailAddress,
      password,
      ...(code.trim() ? { code } : {}),
      ...(unlockToken ? { unlockToken } : {}),
    });
    navigate(safeNext, { replace: true });
  });
  const retryAfter = error?.status === 429 ? error.response.headers.get('Retry-After') : null;
  // the service asks for a second factor (admins and owners who turned it on): show the code field
  const [needsCode, setNeedsCode] = useState(false);
  const codeAsked = error?.body?.code === 'MFA_REQUIRED' || error?.body?.code === 'MFA_CODE_INVALID';
  if (codeAsked && !needsCode) setNeedsCode(true);
  return (
    <section>
      <h1>Log in</h1>
      {session && (
        // already signed in (a bookmark, the back button): say as whom, and the way on
        <p role="status">
          You are logged in as {session.firstName}. <Link href={safeNext}>Go on</Link>, or log in below as
          someone else.
        </p>
      )}
      {query.get('expired') && <p role="status">Your session has expired. Log in again to continue.</p>}
      {unlockToken && (
        <p role="status">
          Enter your password to sign in from this browser (the link from the e-mail works for an hour).
        </p>
      )}
      <form onSubmit={submit}>
        <Field
          {...EMAIL_FIELD}
          value={emailAddress}
          onChange={setEmail}
          error={error?.field('emailAddress')}
        />
        <Field
          {...passwordField('Password', 'current')}
          value={password}
          onChange={setPassword}
          error={error?.field('password')}
        />
        {needsCode && (
          <Field
            label="Code from your authenticator app (or a recovery code)"
            name="code"
            autoComplete="one-time-code"
            value={code}
            onChange={setCode}
            error={error?.field('code')}
          />
        )}
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
        <Link href="/forgot-password">Forgot your password?</Link> ·{' '}
        <Link href={withNext('/signup', next)}>Sign up</Link>
      </p>
    </section>
  );
}
