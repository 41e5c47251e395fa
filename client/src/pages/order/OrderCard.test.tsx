import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createInstance } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import type { ReactNode } from 'react';
import type { Order } from '@shared/orders/model';
import de from '@client/i18n/locales/orders/de.json';
import en from '@client/i18n/locales/orders/en.json';
import { MemoryRouter } from 'react-router-dom';
import { EntryFigure, OrderCard, VoidNote } from './OrderCard';

const i18n = createInstance();
await i18n.init({
  lng: 'en',
  resources: { en: { translation: en }, de: { translation: de } },
  interpolation: { escapeValue: false },
});
const render = (node: ReactNode, lang = 'en') => {
  void i18n.changeLanguage(lang);
  return renderToStaticMarkup(<I18nextProvider i18n={i18n}>{node}</I18nextProvider>);
};

const waiting: Pick<Order, 'id' | 'status' | 'entry'> = { id: '7', status: 'open', entry: null };

describe('the order card', () => {
  it('says an open order waits for its entry tick, then shows the tick', () => {
    expect(render(<EntryFigure order={waiting} />)).toBe(
      '<span class="order-card__awaiting" data-testid="entry-price-7" data-awaiting="true">Waiting for the entry tick…</span>',
    );
    expect(render(<EntryFigure order={waiting} />, 'de')).toContain('Warten auf Einstiegskurs…');
    const entered = render(
      <EntryFigure order={{ ...waiting, entry: { seq: 42, ts: 1_000, price: '67000.50' } }} />,
    );
    expect(entered).toContain('data-seq="42"');
    expect(entered).toContain('67,000.50');
    expect(entered).not.toContain('data-awaiting');
  });

  it('shows a dash, not a wait, for an order void before it had an entry', () => {
    const html = render(<EntryFigure order={{ ...waiting, status: 'void' }} />);
    expect(html).toContain('--');
    expect(html).not.toContain('Waiting');
  });

  it('words each void reason', () => {
    expect(render(<VoidNote order={{ id: '7', voidReason: 'NO_ENTRY_TICK' }} />)).toContain(
      'No entry price in time; amount refunded',
    );
    expect(render(<VoidNote order={{ id: '7', voidReason: 'FEED_STALE' }} />)).toContain(
      'Price feed interrupted; amount refunded',
    );
    expect(render(<VoidNote order={{ id: '7', voidReason: null }} />)).toContain('Amount refunded');
  });

  it("labels a sold order's exit as its sale price, and says Sold", () => {
    const sold: Order = {
      id: '9',
      mode: 'real',
      productId: 'BTCUSDT',
      direction: 'up',
      amount: 1_000,
      duration: 300,
      expiry: null,
      rate: '0.9',
      status: 'sold',
      entry: { seq: 1, ts: 1_000, price: '67000.50' },
      exit: { seq: 5, ts: 60_000, price: '67012.25' },
      payout: 952,
      pnl: -48,
      createdAt: 900,
      expiresAt: 301_000,
      settledAt: 60_100,
      voidReason: null,
      sale: { requestedAt: 59_800, msLeft: 241_000, annualVol: 0.6, spreadBp: 500, value: 952 },
    };
    const html = render(
      <MemoryRouter>
        <OrderCard order={sold} productName="Bitcoin" />
      </MemoryRouter>,
    );
    expect(html).toContain('data-status="sold"');
    expect(html).toContain('>Sold<');
    expect(html).toContain('<dt>Sale price</dt>');
    expect(html).toContain('67,012.25');
    expect(html).not.toContain('<dt>Exit</dt>');
  });
});
