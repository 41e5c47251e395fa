/**
 * The messages between a database served on a thread of its own (`serveDb`) and the clients that
 * reach it through MessagePorts (`portDb`). Every request carries an id its answer repeats; the
 * statements of a transaction also carry the transaction's id.
 */
import type { TransactionOptions } from '../db';

export type DbRequest =
  | { id: number; op: 'query'; sql: string; params?: readonly unknown[]; tx?: number }
  | { id: number; op: 'exec'; sql: string; tx?: number }
  | { id: number; op: 'begin'; tx: number; isolation?: TransactionOptions['isolation'] }
  | { id: number; op: 'commit'; tx: number }
  | { id: number; op: 'rollback'; tx: number }
  | { id: number; op: 'ping' };

/** What a database error carries across (the fields of PostgreSQL's ErrorResponse the app reads). */
export interface WireError {
  message: string;
  /** The JavaScript error's class, when it is one of the built-in ones (RangeError, TypeError). */
  name?: string;
  code?: string;
  detail?: string;
  constraint?: string;
  table?: string;
  column?: string;
  schema?: string;
  severity?: string;
  hint?: string;
}

export type DbAnswer =
  | { id: number; ok: true; rows?: unknown[]; rowCount?: number }
  | { id: number; ok: false; error: WireError };

const errorFields = [
  'code',
  'detail',
  'constraint',
  'table',
  'column',
  'schema',
  'severity',
  'hint',
] as const;

export function toWire(err: unknown): WireError {
  const out: WireError = { message: err instanceof Error ? err.message : String(err) };
  if (err instanceof RangeError || err instanceof TypeError) out.name = err.name;
  if (typeof err === 'object' && err !== null)
    for (const f of errorFields) {
      const v = (err as Record<string, unknown>)[f];
      if (typeof v === 'string') out[f] = v;
    }
  return out;
}

/** An Error with the fields the driver's would have (`code` for retries and constraint checks). */
export function fromWire(w: WireError): Error {
  const { message, name, ...fields } = w;
  const Class = name === 'RangeError' ? RangeError : name === 'TypeError' ? TypeError : Error;
  return Object.assign(new Class(message), fields);
}
