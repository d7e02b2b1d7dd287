/** `/forgot-password` and `/reset-password`: the password reset request and the new password. */
import { api, call } from '#web/api.ts';
import { Link, useLocation } from '#web/router.tsx';
import { EMAIL_FIELD, Field, Form, passwordField } from '#web/ui/form.tsx';
import { useFields, useSubmit } from '#web/ui/hooks.ts';

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
            error={error?.field('token')}
          />
        )}
        <Field {...passwordField('New password (8 to 72 characters)', 'new')} {...bind('password', error)} />
      </Form>
      {error?.body?.code === 'EMAIL_TOKEN_INVALID' && (
        // a used or expired link is a dead end without the way to a new one (QA)
        <p>
          <Link href="/forgot-password">Ask for a new reset link</Link>.
        </p>
      )}
    </section>
  );
}
