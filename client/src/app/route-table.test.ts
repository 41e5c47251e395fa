import { describe, expect, it } from 'vitest';
import { appRoutes, homeAliases, isTabPath, tabRoutes } from './route-table';

describe('route table', () => {
  it('holds every route of the spec once', () => {
    const paths = appRoutes.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toHaveLength(30);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/pages/index/index',
        '/pages/Detail/Detail',
        '/pages/money/detail',
        '/pages/index/detail',
        '/pages/recharge/recharge-usdt-erc20',
        '/pages/yinsi/gy',
      ]),
    );
    expect(homeAliases).toEqual(['/', '/pages/welcome/welcome']);
  });

  it('has the four tabs in order', () => {
    expect(tabRoutes.map((r) => r.path)).toEqual([
      '/pages/index/index',
      '/pages/product/product',
      '/pages/money/money',
      '/pages/user/user',
    ]);
    expect(isTabPath('/pages/product/product')).toBe(true);
    expect(isTabPath('/pages/Detail/Detail')).toBe(false);
  });
});
