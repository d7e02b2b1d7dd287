/**
 * Pages a student opens rarely, loaded on demand: e-mail preferences, the page of an e-mailed
 * unsubscribe link, the export of one's data, deleting the account, one order.
 */
import { useState } from 'react';
import type { components } from '#web/api.gen.ts';
import { api, call, money } from '#web/api.ts';
import { Link, navigate, useLocation } from '#web/router.tsx';
import { setSession } from '#web/session.ts';
import {
  Amounts,
  ErrorNote,
  Field,
  Loading,
  Progress,
  passwordField,
  Submit,
  useFields,
  useLoad,
  useSubmit,
} from '#web/ui.tsx';

type Preferences = components['schemas']['EmailPreferences'];

const MATCHES: Record<Preferences['matches'], string> = {
  each: 'one e-mail per match',
  daily: 'one summary a day',
  off: 'no e-mail (still shown in notifications)',
};

function PreferencesForm({ initial }: { initial: Preferences }) {
  const [form, setForm] = useState(initial);
  const {
    error,
    busy,
    done: saved,
    submit,
  } = useSubmit(async () =>
    setForm(await call(api.POST('/api/user/updateEmailPreferences', { body: form }))),
  );
  const toggle = (k: 'purchases' | 'listings', label: string) => (
    <div className="field check">
      <input
        id={`pref-${k}`}
        type="checkbox"
        checked={form[k]}
        onChange={(e) => setForm((f) => ({ ...f, [k]: e.target.checked }))}
      />
      <label htmlFor={`pref-${k}`}>{label}</label>
    </div>
  );
  return (
    <form onSubmit={submit}>
      <fieldset>
        <legend>Books that match my requests</legend>
        {(Object.keys(MATCHES) as Preferences['matches'][]).map((m) => (
          <div className="field check" key={m}>
            <input
              id={`pref-matches-${m}`}
              type="radio"
              name="matches"
              value={m}
              checked={form.matches === m}
              onChange={() => setForm((f) => ({ ...f, matches: m }))}
            />
            <label htmlFor={`pref-matches-${m}`}>{MATCHES[m]}</label>
          </div>
        ))}
      </fieldset>
      {toggle('purchases', 'E-mails about my purchases and sales')}
      {toggle('listings', 'E-mails about my listings (for example when one is unlisted)')}
      <ErrorNote error={error} />
      {saved && <p role="status">Preferences saved.</p>}
      <button type="submit" disabled={busy}>
        Save the preferences
      </button>
    </form>
  );
}

export function PreferencesPage() {
  const prefs = useLoad(() => call(api.GET('/api/user/getEmailPreferences')), []);
  return (
    <section>
      <h1>E-mail preferences</h1>
      <p>Account e-mails (confirmation, password reset) are always sent.</p>
      {prefs.loading && !prefs.data && <Loading what="your preferences" />}
      <ErrorNote error={prefs.error} />
      {prefs.data && <PreferencesForm initial={prefs.data} />}
    </section>
  );
}

/**
 * The page of the link at the end of a non-essential e-mail (`/unsubscribe?token=`): opening it
 * changes nothing (mail scanners open links); the button makes the one-click POST.
 */
export function UnsubscribePage() {
  const { query } = useLocation();
  const token = query.get('token') ?? '';
  const [done, setDone] = useState<string | null>(null);
  const { error, busy, submit } = useSubmit(async () => {
    const r = await call(api.POST('/api/user/unsubscribe/{token}', { params: { path: { token } } }));
    setDone(r.message);
  });
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

/** `/my-data`: downloads everything the service keeps about the caller as one JSON file. */
export function MyDataPage() {
  const {
    error,
    busy,
    done,
    submit: download,
  } = useSubmit(async () => {
    const data = await call(api.GET('/api/user/exportData'));
    const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `campus-books-data-${data.exportedAt.slice(0, 10)}.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  });
  return (
    <section>
      <h1>Your data</h1>
      <p>One JSON file with your profile, preferences, books, requests, cart, orders and notifications.</p>
      <ErrorNote error={error} />
      {done && <p role="status">Your data was downloaded.</p>}
      <button type="button" onClick={() => download()} disabled={busy}>
        Download my data
      </button>
    </section>
  );
}

/**
 * `/delete-account`: leaves the service for good after the password (the contract's deleteAccount).
 * Refused while a purchase of theirs is being handed over (409, said as it comes); on success the
 * session ends and the home page says so.
 */
export function DeleteAccountPage() {
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
        out everywhere. Orders stay for the other party, with you shown as “deleted user”. You can{' '}
        <Link href="/my-data">download your data</Link> first.
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

export function OrderPage({ id }: { id: string }) {
  const order = useLoad(
    () => call(api.GET('/api/user/getOrder/{orderId}', { params: { path: { orderId: id } } })),
    [id],
  );
  const o = order.data;
  return (
    <section>
      <h1>Order</h1>
      {order.loading && !o && <Loading what="the order" />}
      <ErrorNote error={order.error} />
      {o && (
        <>
          <p>Placed {o.createdAt ? new Date(o.createdAt).toLocaleString() : ''}</p>
          <ul className="books">
            {o.books.map((b) => (
              <li key={b.id} className={b.cancelled ? 'inactive' : undefined}>
                <article className="book" aria-labelledby={`ob-${b.id}`}>
                  <h2 id={`ob-${b.id}`}>
                    {b.name} <span className="muted">(edition {b.edition})</span>
                  </h2>
                  <p>
                    <strong>{money(b.price)}</strong> · {b.course} · {b.condition} · sold by{' '}
                    {b.owner.firstName}
                  </p>
                  {b.cancelled ? <p className="tag">Cancelled</p> : <Progress status={b.status ?? 0} />}
                </article>
              </li>
            ))}
          </ul>
          <Amounts amounts={o} />
        </>
      )}
      <p>
        <Link href="/orders">All purchases and sales</Link>
      </p>
    </section>
  );
}
