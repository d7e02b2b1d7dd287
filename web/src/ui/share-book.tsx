/**
 * "Share" on a listed book's page and under the Sell form's "is listed" line: what students do with
 * a listing (a seller posts it in the class's group chat, a buyer sends it to a friend). On a phone it opens the system's share sheet
 * (the Web Share API); where there is none, it copies the link; where the clipboard is refused too,
 * it shows the link, selected, to copy by hand. The link is the book's page, which a visitor can
 * open (it says how to log in or sign up and comes back there).
 */
import { useState } from 'react';
import { Hidden } from '#web/ui/layout.tsx';

type Shared = 'copied' | 'shown' | null;

export function ShareBook({ id, name }: { id: string; name: string }) {
  const [shared, setShared] = useState<Shared>(null);
  const url = `${location.origin}/books/${encodeURIComponent(id)}`;
  const share = async () => {
    setShared(null);
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title: name, text: `“${name}” on Campus Books`, url });
        return;
      } catch (e) {
        // the student closed the sheet: nothing to say
        if (e instanceof DOMException && e.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      setShared('copied');
    } catch {
      setShared('shown');
    }
  };
  return (
    <div className="share">
      <button type="button" className="secondary" onClick={() => void share()}>
        Share<Hidden> {name}</Hidden>
      </button>
      {shared === 'copied' && (
        <p role="status" className="muted share-note">
          Link copied: paste it in a chat or an e-mail.
        </p>
      )}
      {shared === 'shown' && (
        <label>
          Copy this link:{' '}
          <input
            className="share-link"
            readOnly
            value={url}
            onFocus={(e) => e.currentTarget.select()}
            ref={(el) => el?.select()}
          />
        </label>
      )}
    </div>
  );
}
