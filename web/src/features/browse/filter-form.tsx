/**
 * The browsing filters and order, in a sheet ("Filters and sort", with how many are on) that is
 * folded on a phone, so the books come first, and open on a wide screen. Every change applies at
 * once and lands in the address: a choice from a list when chosen, a typed price when its field
 * is left or Enter is pressed.
 */
import { type FormEvent, type KeyboardEvent, useState } from 'react';
import type { ApiFailure } from '#web/api.ts';
import { CONDITION_LABELS, CONDITIONS } from '#web/books.ts';
import {
  browseHref,
  type Filters,
  LISTING_SORTS,
  SEARCH_SORTS,
  SORT_LABELS,
  type Sort,
} from '#web/features/browse/filters.ts';
import { navigate } from '#web/router.tsx';
import { Field } from '#web/ui/form.tsx';

/** Open at first on a screen wide enough to show the books beside the sheet's fields. */
const WIDE = '(min-width: 48rem)';
export function FilterForm({
  q,
  filters,
  myCampus,
  error,
}: {
  q: string;
  filters: Filters;
  /** the signed-in caller's campus; undefined without a session (every campus is shown) */
  myCampus: string | null | undefined;
  error: ApiFailure | undefined;
}) {
  const [draft, setDraft] = useState(filters);
  // Filters changed from elsewhere (Back, a link): the draft follows them. Not by remounting the
  // form (a `key`), which would drop the focus of the list just chosen to the top of the page.
  const shown = browseHref(q, filters);
  const [drafted, setDrafted] = useState(shown);
  if (drafted !== shown) {
    setDrafted(shown);
    setDraft(filters);
  }
  const set = (k: keyof Filters) => (v: string) => setDraft((d) => ({ ...d, [k]: v }));
  // A choice from a list (campus, condition, sort) applies at once and lands in the address; the
  // typed price range waits for its button (or Enter).
  const choose = (k: keyof Filters) => (v: string) => {
    const next = { ...draft, [k]: v };
    setDraft(next);
    navigate(browseHref(q, next));
  };
  const sorts: Sort[] = [...(q ? SEARCH_SORTS : LISTING_SORTS)];
  // a typed price applies when its field is left or Enter is pressed (not at every keystroke)
  const apply = () => {
    const next = browseHref(q, draft);
    if (next !== shown) navigate(next);
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    apply();
  };
  const onEnter = (e: KeyboardEvent) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    apply();
  };
  const [open, setOpen] = useState(() => typeof matchMedia === 'function' && matchMedia(WIDE).matches);
  const on = [filters.campus, filters.condition, filters.minPrice, filters.maxPrice].filter(Boolean).length;
  return (
    <details
      className="sheet"
      open={open}
      onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
    >
      <summary>Filters and sort{on > 0 ? ` (${on} on)` : ''}</summary>
      <form onSubmit={onSubmit} className="filters" aria-label="Narrow the books">
        {myCampus !== undefined && (
          <Field
            name="campus"
            label="Campus"
            options={['', 'all']}
            // the campus's name is in the results' heading: with it here the choice was cut short
            labels={{ '': 'My campus', all: 'All campuses' }}
            value={draft.campus}
            onChange={choose('campus')}
            error={error?.field('campus')}
          />
        )}
        <Field
          name="condition"
          label="Condition"
          options={['', ...CONDITIONS]}
          labels={CONDITION_LABELS}
          value={draft.condition}
          onChange={choose('condition')}
          error={error?.field('condition')}
        />
        {(['minPrice', 'maxPrice'] as const).map((k) => (
          <Field
            key={k}
            name={k}
            label={k === 'minPrice' ? 'Lowest price in dollars' : 'Highest price in dollars'}
            type="number"
            min={0}
            step="0.01"
            value={draft[k]}
            onChange={set(k)}
            onBlur={apply}
            onKeyDown={onEnter}
            error={error?.field(k)}
          />
        ))}
        {sorts.length > 1 && (
          <Field
            name="sort"
            label="Sort"
            options={sorts}
            labels={SORT_LABELS}
            value={!q && draft.sort === 'relevance' ? 'newest' : draft.sort}
            onChange={choose('sort')}
            error={error?.field('sort')}
          />
        )}
      </form>
    </details>
  );
}
