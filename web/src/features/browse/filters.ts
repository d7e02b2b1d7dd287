/**
 * The browsing filters of the listing and search pages (API.md, Additions: "Campus scoping" and
 * "Browsing: one book, filters, sort"), kept in the page's address so a filtered page can be shared
 * and Back undoes a change. Prices are typed and sent in dollars (`^\d{1,5}(\.\d{1,2})?$`, the
 * contract's money parameters); the service turns them into cents.
 */
import type { operations } from '#web/api.gen.ts';
import { CONDITIONS } from '#web/books.ts';

type ListingQuery = NonNullable<operations['booksGetAllBooks']['parameters']['query']>;
type SearchQuery = NonNullable<operations['booksSearch']['parameters']['query']>;
/** A search's orders: a listing's and `relevance` (the search's default; a listing reads it as newest). */
export type Sort = NonNullable<SearchQuery['sort']>;

export const SORT_LABELS: Record<Sort, string> = {
  relevance: 'Best match',
  newest: 'Newest first',
  'price-asc': 'Price, lowest first',
  'price-desc': 'Price, highest first',
};

/** The orders a search can be read in (the API answers 400 to any other). */
export const SEARCH_SORTS: readonly Sort[] = ['relevance', 'newest', 'price-asc', 'price-desc'];
/** The orders a listing can be read in. */
export const LISTING_SORTS: readonly NonNullable<ListingQuery['sort']>[] = [
  'newest',
  'price-asc',
  'price-desc',
];

export interface Filters {
  /** '' is the caller's campus (the service's default with a token); 'all' every campus. */
  campus: '' | 'all';
  condition: string;
  minPrice: string;
  maxPrice: string;
  sort: Sort;
}

/** The default sort is relevance: a search's default; a listing (no search text) reads it as newest. */
export const NO_FILTERS: Filters = {
  campus: '',
  condition: '',
  minPrice: '',
  maxPrice: '',
  sort: 'relevance',
};

const isSort = (s: string | null): s is Sort => s !== null && s in SORT_LABELS;

/** The filters named in a page address (anything unknown falls back to the default). */
export function filtersFrom(params: URLSearchParams): Filters {
  const condition = params.get('condition') ?? '';
  const sort = params.get('sort');
  return {
    campus: params.get('campus') === 'all' ? 'all' : '',
    condition: CONDITIONS.includes(condition) ? condition : '',
    minPrice: params.get('minPrice') ?? '',
    maxPrice: params.get('maxPrice') ?? '',
    sort: isSort(sort) ? sort : 'relevance',
  };
}

/** The page address of a search text and filters; defaults are left out. */
export function browseHref(q: string, filters: Filters): string {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  for (const key of Object.keys(NO_FILTERS) as (keyof Filters)[]) {
    const value = filters[key].trim();
    if (value && value !== NO_FILTERS[key]) params.set(key, value);
  }
  const search = params.toString();
  return search ? `/?${search}` : '/';
}

/** The API query of the filters for a listing page. */
export function listingQuery(filters: Filters): ListingQuery {
  const { sort: _searchSort, ...rest } = searchQuery(filters);
  const sort = LISTING_SORTS.find((s) => s === filters.sort && s !== 'newest');
  return { ...rest, ...(sort ? { sort } : {}) };
}

/** The API query of the filters for a search page (the sort only where the search accepts it). */
export function searchQuery(filters: Filters): SearchQuery {
  const min = filters.minPrice.trim();
  const max = filters.maxPrice.trim();
  const sort = SEARCH_SORTS.find((s) => s === filters.sort && s !== 'relevance');
  return {
    ...(filters.campus ? { campus: filters.campus } : {}),
    ...(filters.condition ? { condition: filters.condition } : {}),
    ...(min ? { minPrice: min } : {}),
    ...(max ? { maxPrice: max } : {}),
    ...(sort ? { sort } : {}),
  };
}
