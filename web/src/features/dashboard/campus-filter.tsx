/** The campus field of a dashboard tab (statistics, hand-over points) and its Show button. */
import { useState } from 'react';

/**
 * `initial`: what the field holds until it is typed in; `show` gets the typed domain, trimmed and
 * lower-cased; `error`: the service's sentence about it, shown beside the field.
 */
export function CampusFilter({
  id,
  label,
  initial,
  error,
  show,
}: {
  id: string;
  label: string;
  initial: string;
  error: string | undefined;
  show: (campus: string) => void;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <form
      className="search"
      onSubmit={(e) => {
        e.preventDefault();
        show((draft ?? initial).trim().toLowerCase());
      }}
    >
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        value={draft ?? initial}
        onChange={(e) => setDraft(e.target.value)}
        placeholder="uni.edu"
        autoComplete="off"
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      <button type="submit">Show</button>
      {error && (
        <span className="field-error" id={`${id}-error`}>
          {error}
        </span>
      )}
    </form>
  );
}
