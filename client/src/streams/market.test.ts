import { describe, expect, it } from 'vitest';
import { resumeFrom } from './market';

describe('ticks resumed on re-subscription', () => {
  it('names the last seq held of each ticks channel, and nothing for the rest', () => {
    const held = new Map([
      ['BTCUSDT', 41],
      ['ETHUSDT', 7],
    ]);
    expect(resumeFrom(['market', 'ticks:BTCUSDT', 'ticks:XAUUSD'], held)).toEqual({
      after: { BTCUSDT: 41 },
    });
    expect(resumeFrom(['market', 'ticks:XAUUSD'], held)).toEqual({});
  });
});
