import { api, call } from '#web/api.ts';
import { ErrorNote, StatusLine } from '#web/ui/form.tsx';
import { useSubmit } from '#web/ui/hooks.ts';

/** `/my-data`: downloads everything the service keeps about the caller as one JSON file. */
export default function MyDataPage() {
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
      <p>
        One JSON file with your profile, preferences, books, requests, cart, saved books, orders, messages,
        the people you blocked and notifications.
      </p>
      <ErrorNote error={error} />
      {done && <StatusLine>Your data was downloaded.</StatusLine>}
      <button type="button" onClick={() => download()} disabled={busy}>
        Download my data
      </button>
    </section>
  );
}
