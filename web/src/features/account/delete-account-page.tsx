import { api, call } from '#web/api.ts';
import { Link, navigate } from '#web/router.tsx';
import { setSession } from '#web/session.ts';
import { ErrorNote, Field, passwordField } from '#web/ui/form.tsx';
import { useFields, useSubmit } from '#web/ui/hooks.ts';

/**
 * `/delete-account`: leaves the service for good after the password (the contract's deleteAccount).
 * Refused while a purchase of theirs is being handed over (409, said as it comes); on success the
 * session ends and the home page says so.
 */
export default function DeleteAccountPage() {
  const { form, bind } = useFields({ password: '' });
  const { error, busy, submit } = useSubmit(async () => {
    await call(api.POST('/api/auth/deleteAccount', { body: form }));
    setSession(null);
    navigate('/?deleted=1', { replace: true });
  });
  return (
    <section>
      <h1>Delete your account</h1>
      <p>
        Your listings, requests, cart, matches, notifications and preferences are deleted and you are logged
        out everywhere. Orders stay for the other party, with you shown as “deleted user”. Your reports of
        listings stay for 90 days with a keyed hash of your mailbox, so a new account of yours counts as the
        same reporter. You can <Link href="/my-data">download your data</Link> first.
      </p>
      <form onSubmit={submit} noValidate>
        <Field {...passwordField('Your password', 'current')} {...bind('password', error)} />
        <ErrorNote error={error} />
        <button type="submit" className="danger" disabled={busy}>
          Delete my account
        </button>
      </form>
    </section>
  );
}
