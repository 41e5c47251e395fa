import { describe, expect, it } from 'vitest';
import { chartViews, shownView, viewForDuration, viewMs } from './chart-view';

describe('the candle interval follows the trade duration', () => {
  it.each([
    [30, '5s'],
    [60, '15s'],
    [120, '15s'],
    [300, '1m'],
    [900, '1m'],
    [1800, '5m'],
    [3600, '15m'],
    [86_400, '1h'],
  ] as const)('%i s → %s', (seconds, view) => {
    expect(viewForDuration(seconds)).toBe(view);
  });

  it('takes the shortest interval for a trade shorter than four of them', () => {
    expect(viewForDuration(5)).toBe('5s');
  });

  it('shows 1-minute candles without a duration', () => {
    expect(viewForDuration(null)).toBe('1m');
    expect(viewForDuration(Number.NaN)).toBe('1m');
    expect(viewForDuration(0)).toBe('1m');
  });

  it('keeps the trader’s pick for the duration it was made with, not for the next one', () => {
    const pick = { view: '1h' as const, duration: 30 };
    expect(shownView(30, pick)).toBe('1h');
    expect(shownView(300, pick)).toBe('1m');
    expect(shownView(30, null)).toBe('5s');
  });

  it('lists the line, the built intervals and the server’s, shortest first', () => {
    expect(chartViews).toEqual(['line', '5s', '15s', '1m', '5m', '15m', '1h', '4h', '1d']);
    expect(viewMs('line')).toBeNull();
    expect(viewMs('15s')).toBe(15_000);
    expect(viewMs('4h')).toBe(14_400_000);
  });
});
