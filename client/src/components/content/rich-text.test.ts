import { describe, expect, it } from 'vitest';
import { parseText } from './rich-text';

describe('content text', () => {
  it('reads paragraphs, headings and lists', () => {
    expect(
      parseText('Intro line one\nline two\n\n## What\n- a\n- b\nAfter\r\n\r\n<script>x</script>'),
    ).toEqual([
      { kind: 'paragraph', text: 'Intro line one line two' },
      { kind: 'heading', text: 'What' },
      { kind: 'list', items: ['a', 'b'] },
      { kind: 'paragraph', text: 'After' },
      { kind: 'paragraph', text: '<script>x</script>' },
    ]);
    expect(parseText('')).toEqual([]);
  });
});
