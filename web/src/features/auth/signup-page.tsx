/**
 * `/signup`: sign-up, then "check your e-mail" with a button to resend it. A sign-up from a page
 * (`?next=`, a book's "sign up") keeps that page for after the confirmation (web/src/return-to.ts).
 */
import { api, call } from '#web/api.ts';
import { keepReturnTo, sitePath, withNext } from '#web/return-to.ts';
import { Link, useLocation } from '#web/router.tsx';
import { ErrorNote, Field, Submit } from '#web/ui/form.tsx';
import { useFields, useSubmit } from '#web/ui/hooks.ts';

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
  const next = sitePath(useLocation().query.get('next'));
  const { form, bind } = useFields<SignupForm>({
    emailAddress: '',
    password: '',
    firstName: '',
    lastName: '',
    university: '',
    campusMailbox: '',
    paymentUsername: '',
  });
  const signup = useSubmit(async () => {
    await call(api.POST('/api/auth/signup', { body: form }));
    keepReturnTo(next);
  });
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
        Already signed up? <Link href={withNext('/login', next)}>Log in</Link>.
      </p>
    </section>
  );
}
