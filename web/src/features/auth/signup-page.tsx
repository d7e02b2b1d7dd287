/** `/signup`: sign-up, then "check your e-mail" with a button to resend it. */
import { api, call } from '#web/api.ts';
import { Link } from '#web/router.tsx';
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
