import { useEffect, useId, useState, type FormEvent } from 'react';
import { serverErrors, type Errors, type MessageKey, type Rules, type Values } from './validation';

/**
 * A small form controller: values, per-field messages, a message above the form, and a submit
 * that validates with the client rules first and then shows the server's refusal where it
 * belongs. A field is checked when the user leaves it and, from then on, as they type.
 */
export function useForm<F extends string>(initial: Values<F>, ruleset: Rules<NoInfer<F>>) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Errors<F>>({});
  const [formError, setFormError] = useState<MessageKey | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [focusRequest, setFocusRequest] = useState(0);
  // Fields checked as the user types: those left once, and all of them after a submit.
  const [live, setLive] = useState<ReadonlySet<F>>(() => new Set());
  const formId = useId();

  // After a failed submit, the first marked input takes the focus, so keyboard and screen
  // reader users land on what to fix.
  useEffect(() => {
    if (focusRequest > 0) {
      document.getElementById(formId)?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    }
  }, [focusRequest, formId]);

  const check = (field: F, all: Values<F>) => ruleset[field]?.(all[field], all) ?? null;

  const recheck = (all: Values<F>, fields: Iterable<F>) =>
    setErrors((prev) => {
      const next = { ...prev };
      for (const f of fields) {
        const message = check(f, all);
        if (message) next[f] = message;
        else delete next[f];
      }
      return next;
    });

  const setValue = (field: F, value: string) => {
    const all = { ...values, [field]: value };
    setValues(all);
    setFormError(null);
    // A confirmation re-checks when the field it copies changes, hence every live field.
    recheck(all, live);
  };

  const blur = (field: F) => {
    // Leaving an empty field untouched is not yet a mistake; submitting it is.
    if (values[field] === '' && !live.has(field)) return;
    setLive((prev) => new Set(prev).add(field));
    recheck(values, [field]);
  };

  const onSubmit = (send: (values: Values<F>) => Promise<void>) => (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    const fields = Object.keys(values) as F[];
    setLive(new Set(fields));
    const found: Errors<F> = {};
    for (const f of fields) {
      const message = check(f, values);
      if (message) found[f] = message;
    }
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0) {
      setFocusRequest((n) => n + 1);
      return;
    }
    setSubmitting(true);
    send(values)
      .catch((error: unknown) => {
        const shown = serverErrors(error, values, ruleset);
        setErrors(shown.fields);
        setFormError(shown.form);
        setFocusRequest((n) => n + 1);
      })
      .finally(() => setSubmitting(false));
  };

  /** The props of one input: value, change, blur and its message. */
  const field = (name: F) => ({
    name,
    value: values[name],
    error: errors[name] ?? null,
    onValue: (value: string) => setValue(name, value),
    onBlur: () => blur(name),
  });

  return { values, errors, formError, submitting, formId, field, onSubmit };
}
