import { describe, expect, it } from 'vitest';
import { parseTextBlocks } from './text-blocks';

describe('page text blocks', () => {
  it('reads headings, paragraphs and lists', () => {
    const body = [
      '## Entry',
      'The entry price is the latest tick.',
      'It must be fresh.',
      '',
      '## Outcome',
      '- Up wins if exit > entry.',
      '- Equal is a draw.',
      'After the list.',
    ].join('\r\n');
    expect(parseTextBlocks(body)).toEqual([
      { kind: 'heading', text: 'Entry' },
      { kind: 'paragraph', text: 'The entry price is the latest tick.\nIt must be fresh.' },
      { kind: 'heading', text: 'Outcome' },
      { kind: 'list', items: ['Up wins if exit > entry.', 'Equal is a draw.'] },
      { kind: 'paragraph', text: 'After the list.' },
    ]);
  });

  it('keeps markup as text and ignores blank runs', () => {
    expect(parseTextBlocks('\n\n<b>x</b>\n\n\n')).toEqual([
      { kind: 'paragraph', text: '<b>x</b>' },
    ]);
    expect(parseTextBlocks('')).toEqual([]);
  });
});
