import { describe, expect, it } from 'vitest';
import { createInstance } from 'i18next';
import contentEn from '@client/i18n/locales/content/en.json';
import contentZh from '@client/i18n/locales/content/zh-CN.json';
import { messageLinks, messageText } from './message-text';
import { paths } from '@client/app/route-table';

const i18n = createInstance();
await i18n.init({
  lng: 'en',
  resources: {
    en: { translation: contentEn },
    'zh-CN': { translation: contentZh },
  },
  interpolation: { escapeValue: false },
});

describe("a fired price alert's message", () => {
  const at = Date.UTC(2026, 11, 7, 14, 2, 7);
  const params = {
    product: 'BTCUSDT',
    ref: '5',
    direction: 'above' as const,
    threshold: '60000.00',
    price: '60012.50',
    tick: 123,
    at,
  };
  const clock = (lang: string) =>
    new Intl.DateTimeFormat(lang, {
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    }).format(at);

  it("names the product, the tick's price, time and number, and the threshold", () => {
    const text = messageText(
      i18n.getFixedT('en'),
      { kind: 'price_alert', params, title: '', body: '' },
      'en',
      'USDT',
    );
    expect(text).toEqual({
      title: 'Price alert',
      body: `Bitcoin reached 60,012.50 at ${clock('en')} (tick #123), crossing your alert at 60,000.00.`,
    });
    expect(
      messageText(
        i18n.getFixedT('zh-CN'),
        { kind: 'price_alert', params, title: '', body: '' },
        'zh-CN',
        'USDT',
      ).body,
    ).toContain('#123');
    expect(messageLinks.price_alert).toBe(paths.detail);
  });
});
