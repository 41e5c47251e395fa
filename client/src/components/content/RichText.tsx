import { useMemo } from 'react';
import { parseText } from './rich-text';

/** A content text (page or news body) as headings, paragraphs and lists; `lang` is the text's. */
export function RichText({ body, lang, testId }: { body: string; lang?: string; testId?: string }) {
  const blocks = useMemo(() => parseText(body), [body]);
  return (
    <div className="rich-text" lang={lang} data-testid={testId}>
      {blocks.map((block, i) => {
        switch (block.kind) {
          case 'heading':
            return <h2 key={i}>{block.text}</h2>;
          case 'paragraph':
            return <p key={i}>{block.text}</p>;
          case 'list':
            return (
              <ul key={i}>
                {block.items.map((item, j) => (
                  <li key={j}>{item}</li>
                ))}
              </ul>
            );
        }
      })}
    </div>
  );
}
