import { describe, expect, it } from 'vitest';
import { createInstance } from 'i18next';
import contentEn from '@client/i18n/locales/content/en.json';
import contentZh from '@client/i18n/locales/content/zh-CN.json';
import ordersEn from '@client/i18n/locales/orders/en.json';
import ordersZh from '@client/i18n/locales/orders/zh-CN.json';
import { messageLinks, messageText } from './message-text';

const i18n = createInstance();
await i18n.init({
  lng: 'en',
  resources: {
    en: { translation: { ...contentEn, ...ordersEn } },
    'zh-CN': { translation: { ...contentZh, ...ordersZh } },
  },
  interpolation: { escapeValue: false },
});

const words = (lang: string, kind: 'order_won' | 'order_void', params: object) =>
  messageText(i18n.getFixedT(lang), { kind, params, title: '', body: '' }, lang, 'USDT');

describe("a settled order's message", () => {
  it("names the product in the reader's language, the order, the amount and the payout", () => {
    const params = { ref: '42', product: 'XAUUSD', amount: 10_000, payout: 18_500 };
    expect(words('en', 'order_won', params)).toEqual({
      title: 'Order won',
      body: 'Your Gold order #42 won: amount 100.00 USDT, payout of 185.00 USDT added to your available balance.',
    });
    expect(words('zh-CN', 'order_won', params).body).toBe(
      '您的黄金订单 #42 已盈利：本金 100.00 USDT，返还 185.00 USDT 已存入可用余额。',
    );
  });

  it("words a void order's reason code as the order card does", () => {
    const params = { ref: '7', product: 'BTCUSDT', amount: 500, payout: 500, reason: 'FEED_STALE' };
    expect(words('en', 'order_void', params).body).toBe(
      'Your Bitcoin order #7 is void (Price feed interrupted; amount refunded): the amount of 5.00 USDT is back in your available balance.',
    );
  });
});

describe("a USDT transfer's credit", () => {
  it('says the network confirmed it, and links to the deposit details', () => {
    const text = messageText(
      i18n.getFixedT('en'),
      { kind: 'deposit_credited', params: { amount: 15_050, ref: '12' }, title: '', body: '' },
      'en',
      'USDT',
    );
    expect(text).toEqual({
      title: 'USDT deposit credited',
      body: 'Your USDT deposit of 150.50 USDT was confirmed by the network and credited to your available balance.',
    });
    expect(messageLinks.deposit_credited).toBe(messageLinks.deposit_approved);
  });
});
