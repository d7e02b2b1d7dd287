/** The form that edits one listing's price, condition, author and comments. */
import { api, call } from '#web/api.ts';
import { CONDITIONS, type Listing } from '#web/books.ts';
import { keys } from '#web/queries.ts';
import { Field, Submit } from '#web/ui/form.tsx';
import { useFields, useSubmit } from '#web/ui/hooks.ts';

export function ListingEditor({ book, done }: { book: Listing; done: () => void }) {
  const { form, bind } = useFields({
    price: String(book.price),
    condition: book.condition as string,
    author: book.author ?? '',
    comments: book.comments,
  });
  const {
    error,
    busy,
    submit: save,
  } = useSubmit(
    async () => {
      await call(
        api.POST('/api/books/updateBook', {
          body: {
            bookId: book.id,
            price: Number(form.price),
            condition: form.condition,
            author: form.author.trim() ? form.author : null,
            comments: form.comments,
          },
        }),
      );
      done();
    },
    keys.listings,
    keys.books,
  );
  return (
    <form onSubmit={save} aria-label={`Edit ${book.name}`}>
      <Field {...bind('price', error)} label="Price" type="number" step="0.01" />
      <Field
        {...bind('condition', error)}
        label="Condition"
        options={CONDITIONS.includes(form.condition) ? CONDITIONS : [form.condition, ...CONDITIONS]}
      />
      <Field {...bind('author', error)} label="Author" />
      <Field {...bind('comments', error)} label="Comments" multiline />
      <Submit error={error} busy={busy}>
        Save
      </Submit>
      <button type="button" onClick={done}>
        Cancel
      </button>
    </form>
  );
}
