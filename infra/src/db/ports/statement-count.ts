import type { DbLane } from './serve';

/**
 * A diagnostic of the embedded database thread (DB_COUNT_STATEMENTS_S): every statement served is
 * counted by lane and text, and the counts of each window of `seconds` are written to stderr at
 * its end (what an idle app asks of its database, DECISIONS.md).
 */
export function statementCounter(seconds: number): (lane: DbLane, sql: string) => void {
  let counts = new Map<string, number>();
  setInterval(() => {
    const lines = [...counts]
      .sort((a, b) => b[1] - a[1])
      .map(([key, n]) => `${String(n).padStart(6)} ${key}`);
    process.stderr.write(`statements over ${seconds} s:\n${lines.join('\n')}\n`);
    counts = new Map();
  }, seconds * 1000).unref();
  return (lane, sql) => {
    const key = `${lane} ${sql.replace(/\s+/g, ' ').trim().slice(0, 110)}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
}
