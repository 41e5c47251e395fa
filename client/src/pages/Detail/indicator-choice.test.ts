import { describe, expect, it } from 'vitest';
import { defaultSettings, normaliseChoice } from './indicator-choice';

/** What a device kept (by hand, an older version of the app) reads as a whole, sane choice. */
describe('indicator choice kept on the device', () => {
  it('the first version ({ma, boll}) keeps its toggles, the rest off with the usual settings', () => {
    expect(normaliseChoice({ ma: true, boll: false })).toEqual({
      ma: true,
      ema: false,
      boll: false,
      rsi: false,
      macd: false,
      stoch: false,
      settings: defaultSettings,
    });
    expect(normaliseChoice(null).settings).toEqual(defaultSettings);
  });

  it('settings are bounded and on their step; anything not a number is the default', () => {
    const choice = normaliseChoice({
      rsi: true,
      settings: {
        ma: { period: 1 },
        ema: { period: 1e9 },
        boll: { period: 20.4, multiplier: 2.3 },
        rsi: { period: 'x' },
        stoch: { k: 21, d: 0 },
      },
    });
    expect(choice.rsi).toBe(true);
    expect(choice.settings).toEqual({
      ...defaultSettings,
      ma: { period: 2 },
      ema: { period: 200 },
      boll: { period: 20, multiplier: 2.5 },
      stoch: { k: 21, d: 1 },
    });
  });

  it("MACD's slow average stays longer than its fast one", () => {
    expect(
      normaliseChoice({ settings: { macd: { fast: 30, slow: 20, signal: 9 } } }).settings.macd,
    ).toEqual({ fast: 30, slow: 31, signal: 9 });
    expect(
      normaliseChoice({ settings: { macd: { fast: 50, slow: 3, signal: 9 } } }).settings.macd,
    ).toEqual({ fast: 50, slow: 51, signal: 9 });
  });
});
