/** Shared hooks: running actions (mutations) with their error and busy flag, form fields. */
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiFailure } from '#web/api.ts';

const failure = (err: unknown): ApiFailure =>
  err instanceof ApiFailure ? err : new ApiFailure(0, undefined, new Response());

/**
 * Runs an action (a mutation), keeping its error and a busy flag for the button. After each action
 * that succeeds, the queries under `changes` (keys of queries.ts) are invalidated: the pages and
 * the navigation that show them refresh, and `run` resolves once the shown ones have.
 */
export function useAction(...changes: QueryKey[]) {
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: async (action: () => Promise<unknown>) => {
      try {
        return await action();
      } catch (err) {
        throw failure(err);
      }
    },
    onSuccess: () => Promise.all(changes.map((queryKey) => client.invalidateQueries({ queryKey }))),
  });
  const run = async (action: () => Promise<unknown>): Promise<boolean> => {
    try {
      await mutation.mutateAsync(action);
      return true;
    } catch {
      return false;
    }
  };
  return { error: mutation.error ?? undefined, busy: mutation.isPending, run };
}

/**
 * A form's submit handler: runs `action` (the page is not reloaded), keeping its error, a busy
 * flag and whether the last submit succeeded (`done`, for a "Saved." line).
 */
export function useSubmit(action: () => Promise<unknown>, ...changes: QueryKey[]) {
  const { error, busy, run } = useAction(...changes);
  const [done, setDone] = useState(false);
  const submit = async (e?: FormEvent): Promise<boolean> => {
    e?.preventDefault();
    setDone(false);
    const ok = await run(action);
    setDone(ok);
    return ok;
  };
  return { error, busy, done, submit };
}

/** A form's text fields: `set(name)` is the onChange of one field, `reset()` empties the form. */
export function useFields<F extends Record<string, string>>(initial: F) {
  const [form, setForm] = useState(initial);
  const set = (k: keyof F) => (v: string) => setForm((f) => ({ ...f, [k]: v }));
  /** A Field's name, value, onChange and the error's message for it: `<Field {...bind('name', error)} />`. */
  const bind = <K extends keyof F & string>(k: K, error: ApiFailure | undefined) => ({
    name: k,
    value: form[k],
    onChange: set(k),
    error: error?.field(k),
  });
  // `update` changes several fields at once from the current values (e.g. fills the ones still
  // empty); it is React's own setter, the same function at every render, so effects may depend on it.
  return { form, set, bind, update: setForm, reset: () => setForm(initial) };
}
