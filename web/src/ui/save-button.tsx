/**
 * The heart of a book (save / unsave). Whether a book is saved comes from the caller's saved set
 * (`savedQuery`, read once and kept in the query cache), so a heart on every card costs no request.
 * It lives in ui/ because the browse, book and saved features all show it.
 */
import { useQuery } from '@tanstack/react-query';
import { api, call } from '#web/api.ts';
import { savedKey, savedQuery } from '#web/queries.ts';
import { useSession } from '#web/session.ts';
import { ErrorNote } from '#web/ui/form.tsx';
import { useAction } from '#web/ui/hooks.ts';

/**
 * The heart: saves the book, or unsaves it once saved. `compact` shows the heart alone (on a card's
 * picture); its name still says what it does ("Save <title>").
 */
export function SaveButton({
  bookId,
  name,
  compact = false,
}: {
  bookId: string;
  name: string;
  compact?: boolean;
}) {
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
        <span aria-hidden="true">{isSaved ? '♥' : '♡'}</span>
        {!compact && (isSaved ? ' Unsave' : ' Save')}
      </button>
      <ErrorNote error={act.error} />
    </>
  );
}
