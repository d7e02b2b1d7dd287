/**
 * A book's fields, as the Sell page posts them and My listings edits them (issue 32, item 4): one
 * set of fields, labels, plain-language checks and request body for both forms. The price is
 * required: an empty price is a field error and nothing is sent (`Number('')` is 0, so sending it
 * blindly would list the book for free); a free book is an explicit choice ("Give it away for
 * free"). Empty required fields are told in plain words before anything is sent; every other
 * problem is the API's message, next to its field.
 */
import { type ReactNode, useId, useState } from 'react';
import type { ApiFailure } from '#web/api.ts';
import { CONDITION_LABELS, CONDITIONS } from '#web/books.ts';
import { Field } from '#web/ui/form.tsx';
import { useFields } from '#web/ui/hooks.ts';

export const PRICE_REQUIRED = 'Enter a price in dollars, or tick “Give it away for free”.';

/** The form's text values of a book's fields. */
export type BookForm = {
  ISBN: string;
  name: string;
  author: string;
  edition: string;
  course: string;
  price: string;
  condition: string;
  comments: string;
};

export const BLANK_BOOK: BookForm = {
  ISBN: '',
  name: '',
  author: '',
  edition: '1',
  course: '',
  price: '',
  condition: 'good',
  comments: '',
};

/** The form's values of a stored book (My listings' editor starts from them). */
export const bookFormOf = (b: {
  ISBN: string | null;
  name: string;
  author?: string;
  edition: number;
  course: string;
  price: number;
  condition: string;
  comments: string;
}): BookForm => ({
  ISBN: b.ISBN ?? '',
  name: b.name,
  author: b.author ?? '',
  edition: String(b.edition),
  course: b.course,
  price: String(b.price),
  condition: b.condition,
  comments: b.comments,
});

type Problems = Partial<Record<keyof BookForm, string>>;

/** What is wrong before sending, in plain words, by field (empty when nothing is). */
export function bookFormProblems(form: BookForm, free: boolean): Problems {
  const problems: Problems = {};
  if (!form.name.trim()) problems.name = 'Enter the book’s title.';
  if (!form.course.trim()) problems.course = 'Enter the course the book is for, e.g. CSC 171.';
  const edition = Number(form.edition);
  if (!Number.isInteger(edition) || edition < 1 || edition > 100 || form.edition.trim() === '')
    problems.edition = 'Enter the edition as a whole number from 1 to 100.';
  if (!free && form.price.trim() === '') problems.price = PRICE_REQUIRED;
  return problems;
}

/** The fields postBook and updateBook take, from the form (an empty author or ISBN is none). */
export const bookBody = (form: BookForm, free: boolean) => ({
  name: form.name,
  author: form.author.trim() ? form.author : null,
  edition: Number(form.edition),
  course: form.course,
  price: free ? 0 : Number(form.price),
  condition: form.condition,
  comments: form.comments,
  ISBN: form.ISBN.trim() ? form.ISBN : null,
});

/**
 * A book form's state: its fields, the free choice, and the plain problems found by `check()`
 * (shown under their fields until the next check; ticking "free" clears the price's).
 */
export function useBookForm(initial: BookForm, initialFree = false) {
  const fields = useFields(initial);
  const [free, setFree] = useState(initialFree);
  const [problems, setProblems] = useState<Problems>({});
  return {
    ...fields,
    free,
    setFree,
    problems,
    onFree: (on: boolean) => {
      setFree(on);
      setProblems(({ price: _, ...rest }) => rest);
    },
    /** True when the form may be sent; else its problems show under their fields. */
    check: (): boolean => {
      const found = bookFormProblems(fields.form, free);
      setProblems(found);
      return Object.keys(found).length === 0;
    },
    body: () => bookBody(fields.form, free),
  };
}

/**
 * The fields, in the Sell page's order; `afterIsbn` goes below the ISBN (the Sell page's barcode
 * scan and lookup, which the ISBN's hint then mentions). A field's error is the plain check's, else the API's.
 */
export function BookFields({
  book,
  error,
  afterIsbn,
}: {
  book: ReturnType<typeof useBookForm>;
  error: ApiFailure | undefined;
  afterIsbn?: ReactNode;
}) {
  const freeId = useId();
  const { form, free, problems } = book;
  const field = (k: keyof BookForm) => {
    const bound = book.bind(k, error);
    return { ...bound, error: problems[k] ?? bound.error };
  };
  return (
    <>
      <Field
        {...field('ISBN')}
        label="ISBN (optional)"
        // the Sell page's scan and lookup (`afterIsbn`) fill the rest in; the editor has neither
        {...(afterIsbn
          ? {
              hint: 'Type the ISBN from the back of the book, or scan its barcode, and the rest fills itself in.',
            }
          : {})}
      />
      {afterIsbn}
      <Field {...field('name')} label="Title" required />
      <Field {...field('author')} label="Author (optional)" />
      <Field {...field('edition')} label="Edition" type="number" min={1} required />
      <Field {...field('course')} label="Course (e.g. CSC 171)" required />
      {!free && (
        <Field {...field('price')} label="Price in dollars" type="number" min={0} step="0.01" required />
      )}
      <div className="field check">
        <input
          id={freeId}
          type="checkbox"
          name="free"
          checked={free}
          onChange={(e) => book.onFree(e.target.checked)}
        />
        <label htmlFor={freeId}>Give it away for free</label>
      </div>
      <Field
        {...field('condition')}
        label="Condition"
        // a grade the list does not know (an old book's) stays choosable
        options={CONDITIONS.includes(form.condition) ? CONDITIONS : [form.condition, ...CONDITIONS]}
        labels={CONDITION_LABELS}
      />
      <Field {...field('comments')} label="Comments (optional)" multiline />
    </>
  );
}
