/** Shared hooks: loading data, running actions with their error and busy flag, form fields. */
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { ApiFailure } from '#web/api.ts';

export interface Loaded<T> {
  data?: T | undefined;
  error?: ApiFailure | undefined;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` on mount and when `deps` change; `reload()` runs it again. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiFailure; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names the dependencies
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) =>
        live &&
        setState({
          error: error instanceof ApiFailure ? error : new ApiFailure(0, undefined, new Response()),
          loading: false,
        }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

/**
 * Runs an action, keeping its error and a busy flag for the button; `succeeded` runs after each
 * action that succeeds (e.g. the reload of the list it changed).
 */
export function useAction(succeeded?: () => void) {
  const [error, setError] = useState<ApiFailure | undefined>();
  const [busy, setBusy] = useState(false);
  const after = useRef(succeeded);
  after.current = succeeded;
  const run = useCallback(async (action: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (err) {
      setError(err instanceof ApiFailure ? err : new ApiFailure(0, undefined, new Response()));
      return false;
    } finally {
      setBusy(false);
    }
    after.current?.();
    return true;
  }, []);
  return { error, busy, run, setError };
}

/**
 * A form's submit handler: runs `action` (the page is not reloaded), keeping its error, a busy
 * flag and whether the last submit succeeded (`done`, for a "Saved." line).
 */
export function useSubmit(action: () => Promise<unknown>) {
  const { error, busy, run } = useAction();
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
  return { form, set, bind, reset: () => setForm(initial) };
}
