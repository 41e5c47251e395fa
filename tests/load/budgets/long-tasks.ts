/** The main thread's costs in the median-score Lighthouse run: long tasks, work, script costs. */

/** One row of a Lighthouse table audit; only the fields read here. */
export interface AuditItem {
  url?: string;
  node?: {
    nodeLabel?: string;
    snippet?: string;
    selector?: string;
    boundingRect?: { width?: number; height?: number };
  };
  items?: AuditItem[];
  phase?: string;
  timing?: number;
  percent?: string;
  group?: string;
  groupLabel?: string;
  startTime?: number;
  duration?: number;
  total?: number;
  scripting?: number;
  scriptParseCompile?: number;
}

const shortUrl = (url = '') => url.replace(/^https?:\/\/[^/]+/, '') || url;

/**
 * The main thread's costs in one Lighthouse run (4x CPU slowdown, simulated): its longest tasks
 * (`long-tasks`), the time per kind of work (`mainthread-work-breakdown`) and per script
 * (`bootup-time`).
 */
export function printLongTasks(
  audits: Record<string, { details?: { items?: AuditItem[] } } | undefined>,
): void {
  const items = (id: string) => audits[id]?.details?.items ?? [];
  const ms = (n = 0) => `${n.toFixed(0)} ms`;
  const tasks = [...items('long-tasks')]
    .sort((a, b) => (b.duration ?? 0) - (a.duration ?? 0))
    .slice(0, 8);
  console.log(
    `\nTop long tasks (median-score Lighthouse run, ${items('long-tasks').length} in all):`,
  );
  for (const t of tasks) {
    console.log(
      `  ${ms(t.duration).padStart(7)} at ${ms(t.startTime).padStart(7)}  ${shortUrl(t.url)}`,
    );
  }
  const work = items('mainthread-work-breakdown')
    .map((w) => `${w.groupLabel ?? w.group} ${ms(w.duration)}`)
    .join(', ');
  console.log(`Main-thread work: ${work}`);
  // The element Lighthouse took as the largest paint, and LCP's phases (TTFB, load delay and
  // time, render delay): a render delay means the element waited for the main thread.
  const lcpTables = items('largest-contentful-paint-element');
  const element = lcpTables[0]?.items?.[0]?.node;
  if (element) {
    const rect = element.boundingRect;
    // A zero box: the element is no longer in the page at the end of the run (index.html's first
    // paint of Home, replaced by the app's render).
    const box = rect?.width ? `${rect.width}×${rect.height ?? '?'}` : 'since replaced';
    console.log(
      `LCP element: ${element.selector ?? '?'} (${box}) ${(element.snippet ?? '').slice(0, 160)}`,
    );
  }
  const phases = (lcpTables[1]?.items ?? []).map((p) => `${p.phase} ${ms(p.timing)}`).join(', ');
  if (phases) console.log(`LCP phases: ${phases}`);
  console.log('Script cost (total / evaluation / parse+compile):');
  for (const b of items('bootup-time').slice(0, 6)) {
    console.log(
      `  ${ms(b.total).padStart(7)} / ${ms(b.scripting)} / ${ms(b.scriptParseCompile)}  ${shortUrl(b.url)}`,
    );
  }
}
