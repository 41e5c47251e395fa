import { useEffect, useState } from 'react';
import { useUser } from '@client/state';

/**
 * A half-filled deposit form kept in sessionStorage (this tab only, gone when it closes), so Back
 * and then forward, or a look at the deposit records, finds it as it was (DECISIONS.md, Forms that
 * keep what was typed). Keyed by user and channel, and by the rejected deposit a resubmission corrects. Only
 * the text fields the form shows as typed: never the screenshot (a file cannot be put back into
 * a file input, and a transfer's proof does not belong in storage). Cleared once the deposit is
 * sent.
 */
export interface DepositDraft<F extends string> {
  /** The fields as they were left, or null when there is no draft. */
  saved: Partial<Record<F, string>> | null;
  /** Keeps `values` (every field empty: no draft). */
  save: (values: Record<F, string>) => void;
  clear: () => void;
}

const PREFIX = 'deposit-draft';

/** When each draft (by key) was last cleared because its deposit was sent, on this page. */
const sentAt = new Map<string, number>();

function read<F extends string>(
  key: string,
  fields: readonly F[],
): Partial<Record<F, string>> | null {
  try {
    const raw: unknown = JSON.parse(sessionStorage.getItem(key) ?? 'null');
    if (typeof raw !== 'object' || raw === null) return null;
    const entries = fields
      .map((f) => [f, (raw as Record<string, unknown>)[f]] as const)
      .filter((e): e is readonly [F, string] => typeof e[1] === 'string');
    return entries.length ? (Object.fromEntries(entries) as Partial<Record<F, string>>) : null;
  } catch {
    return null; // storage blocked or a damaged entry: no draft
  }
}

function write(key: string, values: Record<string, string>): void {
  try {
    if (Object.values(values).every((v) => v === '')) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, JSON.stringify(values));
  } catch {
    // Storage full or blocked: the form still works, only without its draft.
  }
}

/** The draft of one deposit form; `fields` are the ones kept. Without a signed-in user, none. */
export function useDepositDraft<F extends string>(
  channel: string,
  resubmitOf: string | undefined,
  fields: readonly F[],
): DepositDraft<F> {
  const userId = useUser()?.id;
  const key = userId ? [PREFIX, userId, channel, resubmitOf].filter(Boolean).join(':') : null;
  // Read once, for the form's first values.
  const [saved] = useState(() => (key ? read(key, fields) : null));
  const [bornAt] = useState(() => performance.now());
  return {
    saved,
    save: (values) => {
      // Once a deposit is sent its draft stays cleared for every form that was on screen then:
      // the sent form can render again while the next page loads (its URL, and so its amount,
      // already changed), and a copy of the form drawn before the send holds the sent values.
      // A form drawn after the send starts a new draft.
      if (key && !((sentAt.get(key) ?? -1) >= bornAt))
        write(key, Object.fromEntries(fields.map((f) => [f, values[f]])));
    },
    clear: () => {
      if (!key) return;
      sentAt.set(key, performance.now());
      write(key, {});
    },
  };
}

/** Saves the draft whenever the kept fields change. */
export function useDraftSaving<F extends string>(
  draft: DepositDraft<F>,
  values: Record<F, string>,
): void {
  const text = JSON.stringify(values);
  const { save } = draft;
  // `text` stands for `values`: the effect runs when what was typed changed, not on each render.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => save(values), [text]);
}
