import { describe, expect, it } from 'vitest';
import { parseOpsArgs } from '../../scripts/ops-args';

describe('the ops CLI command line', () => {
  it('takes an id that begins with a dash as the id (upload ids are base64url)', () => {
    expect(parseOpsArgs(['uploads', 'get', '-R3x_a', '--out', '/tmp/x.png'])).toEqual({
      positionals: ['uploads', 'get', '-R3x_a'],
      values: { out: '/tmp/x.png' },
    });
    expect(parseOpsArgs(['uploads', 'get', '--', '--Abc']).positionals).toEqual([
      'uploads',
      'get',
      '--Abc',
    ]);
  });

  it("takes an option's value as it stands, a leading dash included", () => {
    expect(parseOpsArgs(['deposits', 'reject', '7', '--reason', '-1 day late']).values).toEqual({
      reason: '-1 day late',
    });
    expect(parseOpsArgs(['news', 'publish', '--lang=en', '--title', 'a=b']).values).toEqual({
      lang: 'en',
      title: 'a=b',
    });
  });

  it('refuses an unknown option', () => {
    expect(() => parseOpsArgs(['deposits', 'list', '--colour', 'red'])).toThrow(/colour/);
  });
});
