import { useState } from 'react';
import { api, call } from '#web/api.ts';
import { keys } from '#web/queries.ts';
import { Link, useLocation } from '#web/router.tsx';
import { Submit } from '#web/ui/form.tsx';
import { useSubmit } from '#web/ui/hooks.ts';

/**
 * The page of the link at the end of a non-essential e-mail (`/unsubscribe?token=`): opening it
 * changes nothing (mail scanners open links); the button makes the one-click POST.
 */
export default function UnsubscribePage() {
  const { query } = useLocation();
  const token = query.get('token') ?? '';
  const [done, setDone] = useState<string | null>(null);
  const { error, busy, submit } = useSubmit(async () => {
    const r = await call(api.POST('/api/user/unsubscribe/{token}', { params: { path: { token } } }));
    setDone(r.message);
  }, keys.preferences);
  return (
    <section>
      <h1>Unsubscribe</h1>
      {done ? (
        <p role="status">
          {done} You can change this at any time in your <Link href="/preferences">e-mail preferences</Link>.
        </p>
      ) : token ? (
        <form onSubmit={submit}>
          <p>Stop receiving this kind of e-mail from Campus Books?</p>
          <Submit error={error} busy={busy}>
            Unsubscribe
          </Submit>
        </form>
      ) : (
        <p>This link has no code. Open the link from the e-mail again.</p>
      )}
    </section>
  );
}
