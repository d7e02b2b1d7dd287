/** `/sell`: posts a book; a 400's field errors are shown under their fields. */
import { useState } from 'react';
import { api, call } from '#web/api.ts';
import { CONDITIONS } from '#web/books.ts';
import { keys } from '#web/queries.ts';
import { Link } from '#web/router.tsx';
import { Field, Form } from '#web/ui/form.tsx';
import { useFields, useSubmit } from '#web/ui/hooks.ts';

export function SellPage() {
  const empty = {
    name: '',
    author: '',
    edition: '1',
    course: '',
    price: '',
    condition: 'good',
    comments: '',
    ISBN: '',
  };
  const { form, bind, reset } = useFields(empty);
  const [posted, setPosted] = useState<string | null>(null);
  const { error, busy, submit } = useSubmit(
    async () => {
      const book = await call(
        api.POST('/api/books/postBook', {
          body: {
            name: form.name,
            author: form.author.trim() ? form.author : null,
            edition: Number(form.edition),
            course: form.course,
            price: Number(form.price),
            condition: form.condition,
            comments: form.comments,
            ISBN: form.ISBN.trim() ? form.ISBN : null,
          },
        }),
      );
      setPosted(book.name);
      reset();
    },
    keys.listings,
    keys.books,
    keys.statistics,
  );
  return (
    <section>
      <h1>Sell a book</h1>
      {posted && (
        <p role="status">
          “{posted}” is listed. See it in <Link href="/listings">my listings</Link>.
        </p>
      )}
      <Form onSubmit={submit} noValidate error={error} busy={busy} button="List the book">
        <Field {...bind('name', error)} label="Title" required />
        <Field {...bind('author', error)} label="Author (optional)" />
        <Field {...bind('edition', error)} label="Edition" type="number" min={1} required />
        <Field {...bind('course', error)} label="Course (e.g. CSC 171)" required />
        <Field
          {...bind('price', error)}
          label="Price in dollars"
          type="number"
          min={0}
          step="0.01"
          required
        />
        <Field {...bind('condition', error)} label="Condition" options={CONDITIONS} />
        <Field {...bind('ISBN', error)} label="ISBN (optional)" />
        <Field {...bind('comments', error)} label="Comments (optional)" multiline />
      </Form>
    </section>
  );
}
