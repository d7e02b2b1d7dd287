/** `/preferences`: the e-mail preferences (loaded on demand). */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { components } from '#web/api.gen.ts';
import { api, call } from '#web/api.ts';
import { keys, preferencesQuery } from '#web/queries.ts';
import { ErrorNote, StatusLine } from '#web/ui/form.tsx';
import { useSubmit } from '#web/ui/hooks.ts';
import { Loading } from '#web/ui/layout.tsx';

type Preferences = components['schemas']['EmailPreferences'];

const MATCHES: Record<Preferences['matches'], string> = {
  each: 'one e-mail per match',
  daily: 'one summary a day',
  off: 'no e-mail (still shown in notifications)',
};

function PreferencesForm({ initial }: { initial: Preferences }) {
  const [form, setForm] = useState(initial);
  const client = useQueryClient();
  const { error, busy, done, submit } = useSubmit(async () => {
    // The answer is the stored preferences: the cache takes them as they are, no second read.
    const saved = await call(api.POST('/api/user/updateEmailPreferences', { body: form }));
    client.setQueryData(keys.preferences, saved);
    setForm(saved);
  });
  const toggle = (k: 'purchases' | 'listings' | 'messages' | 'saved', label: string) => (
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
      {toggle('messages', 'E-mails about new messages (at most one per conversation every 15 minutes)')}
      {toggle('saved', 'E-mails about books I saved (a lower price, sold, or no longer listed)')}
      <ErrorNote error={error} />
      {done && <StatusLine>Preferences saved.</StatusLine>}
      <button type="submit" disabled={busy}>
        Save the preferences
      </button>
    </form>
  );
}

export default function PreferencesPage() {
  const prefs = useQuery(preferencesQuery);
  return (
    <section>
      <h1>E-mail preferences</h1>
      <p>Account e-mails (confirmation, password reset) are always sent.</p>
      {prefs.isPending && <Loading what="your preferences" />}
      <ErrorNote error={prefs.error} />
      {prefs.data && <PreferencesForm initial={prefs.data} />}
    </section>
  );
}
