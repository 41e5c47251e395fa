import { describe, expect, it } from 'vitest';
import { appRoutes, homeAliases, isTabPath, tabRoutes } from './route-table';

// Every source file of the client, as text (tests and the REST client, whose /api/pages/… are
// content endpoints, not routes, left out).
const sources = import.meta.glob<string>(
  [
    '../**/*.ts',
    '../**/*.tsx',
    '!../**/*.test.ts',
    '!../**/*.test.tsx',
    '!../api/**',
    '!./route-table.ts',
  ],
  { eager: true, query: '?raw', import: 'default' },
);

describe('route table', () => {
  it('holds every route of the spec once', () => {
    const paths = appRoutes.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    // The spec's 30, the order details (the result sheet's link), the forgotten password and the
    // trader's statistics, and the security page.
    expect(paths).toHaveLength(34);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/pages/index/index',
        '/pages/Detail/Detail',
        '/pages/money/detail',
        '/pages/index/detail',
        '/pages/recharge/recharge-usdt-erc20',
        '/pages/yinsi/gy',
        '/pages/order/detail',
        '/pages/password/forgot',
      ]),
    );
    expect(homeAliases).toEqual(['/', '/pages/welcome/welcome']);
  });

  it('has the five tabs, Orders among them', () => {
    expect(tabRoutes.map((r) => r.path)).toEqual([
      '/pages/index/index',
      '/pages/product/product',
      '/pages/money/money',
      '/pages/user/user',
      '/pages/order/order',
    ]);
    expect(isTabPath('/pages/product/product')).toBe(true);
    expect(isTabPath('/pages/Detail/Detail')).toBe(false);
  });

  it("is the only place the spec's URLs are written: others use `paths`", () => {
    const literal = /["'`]\/pages\/[\w-]+\/[\w-]+/;
    const found = Object.entries(sources)
      .filter(([, text]) => literal.test(text))
      .map(([file, text]) => `${file}: ${text.match(literal)![0]}`);
    expect(Object.keys(sources).length).toBeGreaterThan(100);
    expect(found).toEqual([]);
  });
});
