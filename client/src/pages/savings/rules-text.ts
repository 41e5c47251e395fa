/**
 * The content texts' plain-text conventions (GET /api/pages/:slug): blank lines separate
 * paragraphs, `## ` starts a heading, `- ` a list item. Parsed into blocks React renders as
 * elements, so no markup in a text reaches the page.
 */
export type RulesBlock =
  | { kind: 'heading'; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; items: string[] };

export function parseRulesText(body: string): RulesBlock[] {
  const blocks: RulesBlock[] = [];
  let lines: string[] = [];
  const flush = () => {
    if (lines.length) blocks.push({ kind: 'paragraph', text: lines.join(' ') });
    lines = [];
  };
  for (const raw of body.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    if (!line) flush();
    else if (line.startsWith('## ')) {
      flush();
      blocks.push({ kind: 'heading', text: line.slice(3).trim() });
    } else if (line.startsWith('- ')) {
      flush();
      const last = blocks.at(-1);
      if (last?.kind === 'list') last.items.push(line.slice(2).trim());
      else blocks.push({ kind: 'list', items: [line.slice(2).trim()] });
    } else lines.push(line);
  }
  flush();
  return blocks;
}
