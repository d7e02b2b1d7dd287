/** `/settings`: profile, password and (admins, owners) two-factor sign-in, with links to the rarer account pages. */
import { useQuery } from '@tanstack/react-query';
import { api, call } from '#web/api.ts';
import { Activity } from '#web/features/account/activity.tsx';
import { keys, profileQuery } from '#web/queries.ts';
import { Link, navigate } from '#web/router.tsx';
import { replaceToken, setSession } from '#web/session.ts';
import { ActionButton, ErrorNote, Field, passwordField, StatusLine } from '#web/ui/form.tsx';
import { useAction, useFields, useSubmit } from '#web/ui/hooks.ts';
import { Section } from '#web/ui/layout.tsx';
import { TwoFactorSection } from './two-factor.tsx';

export function SettingsPage() {
  const user = useQuery(profileQuery);
  return (
    <>
      <h1>Settings</h1>
      <ErrorNote error={user.error} />
      <Activity />
      <p>
        <Link href="/preferences">E-mail preferences</Link> · <Link href="/my-data">Your data</Link> ·{' '}
        <Link href="/delete-account">Delete your account</Link>
      </p>
      {user.data && <ProfileForm user={user.data} />}
      <PasswordForm />
      <SessionsSection />
      {user.data && user.data.permissionType >= 1 && <TwoFactorSection />}
    </>
  );
}

type ProfileFields = {
  firstName: string;
  lastName: string;
  university: string;
  campusMailbox: string;
  paymentUsername: string;
};

function ProfileForm({ user }: { user: ProfileFields & { emailAddress: string } }) {
  const { form, bind } = useFields<ProfileFields>({
    firstName: user.firstName,
    lastName: user.lastName,
    university: user.university,
    campusMailbox: user.campusMailbox,
    paymentUsername: user.paymentUsername,
  });
  const save = useSubmit(() => call(api.POST('/api/auth/updateProfile', { body: form })), keys.profile);
  const labels: Record<keyof ProfileFields, string> = {
    firstName: 'First name',
    lastName: 'Last name',
    university: 'University',
    campusMailbox: 'Campus mailbox',
    paymentUsername: 'Payment username',
  };
  return (
    <Section id="profile-h" title="Profile">
      <p>E-mail: {user.emailAddress}</p>
      <form onSubmit={save.submit} noValidate>
        {(Object.keys(labels) as (keyof ProfileFields)[]).map((k) => (
          <Field key={k} {...bind(k, save.error)} label={labels[k]} />
        ))}
        <ErrorNote error={save.error} />
        {save.done && <StatusLine>Saved.</StatusLine>}
        <button type="submit" disabled={save.busy}>
          Save the profile
        </button>
      </form>
    </Section>
  );
}

function PasswordForm() {
  const { form, bind, reset } = useFields({ password: '', newPassword: '' });
  const { error, busy, done, submit } = useSubmit(async () => {
    const { token } = await call(api.POST('/api/auth/updatePassword', { body: form }));
    // the answer also set this session's new refresh cookie (the other sessions' cookies stop working)
    replaceToken(token);
    reset();
  });
  return (
    <Section id="pw-h" title="Password">
      <form onSubmit={submit} noValidate>
        <Field {...passwordField('Current password', 'current')} {...bind('password', error)} />
        <Field {...passwordField('New password', 'new', 'newPassword')} {...bind('newPassword', error)} />
        <ErrorNote error={error} />
        {done && <StatusLine>Password changed; other sessions have ended.</StatusLine>}
        <button type="submit" disabled={busy}>
          Change the password
        </button>
      </form>
    </Section>
  );
}

/**
 * "Log out everywhere": every session of the account ends (each device's refresh cookie and every
 * access token stop working, lib/accounts/sessions.ts), this one included, for a lost phone or a
 * shared computer someone forgot to log out of.
 */
function SessionsSection() {
  const act = useAction();
  const everywhere = async () => {
    await call(api.POST('/api/auth/logoutEverywhere'));
    setSession(null);
    navigate('/login');
  };
  return (
    <Section id="sessions-h" title="Sessions">
      <p>You stay signed in on each device for 30 days from your last visit.</p>
      <ErrorNote error={act.error} />
      <ActionButton act={act} action={everywhere} confirm="Log out on every device, this one included?">
        Log out everywhere
      </ActionButton>
    </Section>
  );
}
