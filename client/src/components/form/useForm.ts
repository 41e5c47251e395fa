import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  useForm as useHookForm,
  useWatch,
  type FieldValues,
  type Path,
  type PathValue,
} from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { serverErrors, type MessageKey } from './validation';

/**
 * A form on react-hook-form, checked by a zod schema (built from the shared schemas, its issue
 * messages are translation keys): values, per-field messages, a message above the form, and a
 * submit that validates first and then shows the server's refusal where it belongs. A field is
 * checked when the user leaves it (not when they only pass through an empty one) and, from then
 * on, as they type; after a submit, every field is.
 */
export function useForm<V extends FieldValues>(defaults: V, schema: z.ZodType<V, V>) {
  const form = useHookForm<V>({
    defaultValues: defaults as never,
    // `raw`: the values as typed; each submit trims what it sends.
    resolver: zodResolver(schema, undefined, { raw: true }),
    // Validation runs when this hook says (see `live`), not on react-hook-form's own events.
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    // Inputs are controlled, not registered; the first marked input is focused below.
    shouldFocusError: false,
  });
  const { control, formState, getValues, setValue: set, setError, clearErrors, trigger } = form;
  const values = useWatch({ control }) as V;
  const [focusRequest, setFocusRequest] = useState(0);
  // Busy while the form is being sent, not while it is checked (react-hook-form's isSubmitting
  // is both, which would flash the button disabled on a refused submit).
  const [sending, setSending] = useState(false);
  // Fields checked as the user types: those left once, and all of them after a submit.
  const live = useRef(new Set<Path<V>>());
  const formId = useId();

  // After a failed submit, the first marked input takes the focus, so keyboard and screen
  // reader users land on what to fix.
  useEffect(() => {
    if (focusRequest > 0) {
      document.getElementById(formId)?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    }
  }, [focusRequest, formId]);

  const errorOf = (name: Path<V>): MessageKey | null =>
    (formState.errors[name]?.message as MessageKey | undefined) ?? null;
  const formError = (formState.errors.root?.server?.message as MessageKey | undefined) ?? null;

  /** Sets a value; a confirmation re-checks when the field it copies changes, hence all live. */
  const setValue = <K extends Path<V>>(name: K, value: PathValue<V, K>) => {
    set(name, value);
    clearErrors('root.server');
    if (live.current.size > 0) void trigger([...live.current]);
  };

  const blur = (name: Path<V>) => {
    // Leaving an empty field untouched is not yet a mistake; submitting it is.
    if (getValues(name) === '' && !live.current.has(name)) return;
    live.current.add(name);
    void trigger(name);
  };

  const onSubmit = (send: (values: V) => Promise<void>) => (event: FormEvent) => {
    live.current = new Set(Object.keys(getValues()) as Path<V>[]);
    const submit = form.handleSubmit(
      async (valid) => {
        setSending(true);
        try {
          await send(valid);
        } catch (error: unknown) {
          const shown = serverErrors(error, getValues(), schema);
          for (const [name, message] of Object.entries(shown.fields))
            setError(name as Path<V>, { type: 'server', message });
          if (shown.form) setError('root.server', { message: shown.form });
          setFocusRequest((n) => n + 1);
        } finally {
          setSending(false);
        }
      },
      () => setFocusRequest((n) => n + 1),
    );
    // A second press while one is being checked or sent does nothing (the button is disabled
    // while sending too).
    if (formState.isSubmitting) event.preventDefault();
    else void submit(event);
  };

  /** The props of one text input: value, change, blur and its message. */
  const field = (name: Path<V>) => ({
    name,
    value: values[name] as string,
    error: errorOf(name),
    onValue: (value: string) => setValue(name, value as PathValue<V, Path<V>>),
    onBlur: () => blur(name),
  });

  return {
    values,
    errorOf,
    formError,
    submitting: sending,
    formId,
    field,
    setValue,
    onSubmit,
  };
}
