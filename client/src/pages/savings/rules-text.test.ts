import { describe, expect, it } from 'vitest';
import { parseRulesText } from './rules-text';

describe('savings rules text', () => {
  it('reads headings, paragraphs and lists, and never markup', () => {
    expect(
      parseRulesText('## In\r\nMoney moves\nat once.\n\n- one\n- two\n\n<b>bold</b>\n## Out'),
    ).toEqual([
      { kind: 'heading', text: 'In' },
      { kind: 'paragraph', text: 'Money moves at once.' },
      { kind: 'list', items: ['one', 'two'] },
      { kind: 'paragraph', text: '<b>bold</b>' },
      { kind: 'heading', text: 'Out' },
    ]);
    expect(parseRulesText('')).toEqual([]);
  });
});
