/**
 * The heart of a book: saves it or unsaves it. Whether a book is saved comes from the saved set in
 * the query cache (read once), so a heart on every card costs no request.
 */
import { useQuery } from '@tanstack/react-query';
import { api, call } from '#web/api.ts';
import { savedKey, savedQuery } from '#web/features/saved/queries.ts';
import { useSession } from '#web/session.ts';
import { ErrorNote } from '#web/ui/form.tsx';
import { useAction } from '#web/ui/hooks.ts';

export function SaveButton({ bookId, name }: { bookId: string; name: string }) {
  const session = useSession();
  const saved = useQuery({ ...savedQuery, enabled: Boolean(session) });
  const act = useAction(savedKey);
  if (!session) return null;
  const isSaved = saved.data?.some((b) => b.id === bookId) ?? false;
  const toggle = () =>
    act.run(() =>
      isSaved
        ? call(api.POST('/api/user/unsaveBook', { body: { bookId } }))
        : call(api.POST('/api/user/saveBook', { body: { bookId } })),
    );
  return (
    <>
      <button
        type="button"
        className="heart"
        aria-pressed={isSaved}
        aria-label={isSaved ? `Unsave ${name}` : `Save ${name}`}
        title={
          isSaved
            ? 'Saved: you will hear of a lower price or a sale'
            : 'Save: hear of a lower price or a sale'
        }
        disabled={act.busy || saved.isPending}
        onClick={toggle}
      >
        <span aria-hidden="true">{isSaved ? '♥' : '♡'}</span> {isSaved ? 'Saved' : 'Save'}
      </button>
      <ErrorNote error={act.error} />
    </>
  );
}
