import { describe, expect, it } from 'vitest';
import { afterLoginPath, guardRedirect, loginPath, needsLogin } from './guard';
import { appRoutes, HOME } from './route-table';

describe('route guard', () => {
  it('guards the personal pages and every money, order, verify and message route', () => {
    for (const path of [
      '/pages/user/user',
      '/pages/set/set',
      '/pages/security/security',
      '/pages/password/password',
      '/pages/money/money',
      '/pages/account/account',
      '/pages/account/account-detail',
      '/pages/money-record/money-record',
      '/pages/order/order',
      '/pages/order/detail',
      '/pages/order/stats',
      '/pages/withdraw-list/withdraw-list',
      '/pages/withdraw-list/withdraw-open',
      '/pages/verify/verify',
      '/pages/withdraw-money/withdraw-money',
      '/pages/message/message',
      '/pages/transfer/transfer',
      '/pages/Particulars/Particulars',
      '/pages/recharge/recharge',
      '/pages/recharge/recharge-bank-card',
      '/pages/recharge/recharge-usdt-trc20',
      '/pages/recharge/recharge-usdt-erc20',
    ]) {
      expect(needsLogin(path), path).toBe(true);
    }
  });

  it('leaves public pages open', () => {
    for (const path of [
      '/pages/index/index',
      '/pages/product/product',
      '/pages/Detail/Detail',
      '/pages/login/login',
      '/pages/login/registerCheck',
      '/pages/login/register',
      '/pages/aboutUs/aboutUs',
      '/pages/yinsi/yinsi',
      '/pages/money/detail',
      '/pages/index/detail',
      '/nowhere',
    ]) {
      expect(needsLogin(path), path).toBe(false);
    }
    expect(appRoutes.filter((r) => r.auth)).toHaveLength(22);
  });

  it('matches paths in any case, as the router does', () => {
    expect(needsLogin('/PAGES/USER/USER')).toBe(true);
    expect(needsLogin('/pages/particulars/particulars')).toBe(true);
  });

  it('sends a signed-out visitor to login with the way back, query included', () => {
    const to = guardRedirect(
      { pathname: '/pages/password/password', search: '?kind=trade' },
      false,
    );
    expect(to).toBe('/pages/login/login?redirect=%2Fpages%2Fpassword%2Fpassword%3Fkind%3Dtrade');
    expect(afterLoginPath(to!.slice(to!.indexOf('?')))).toBe('/pages/password/password?kind=trade');
  });

  it('lets a signed-in user and public pages through', () => {
    expect(guardRedirect({ pathname: '/pages/user/user', search: '' }, true)).toBeNull();
    expect(guardRedirect({ pathname: '/pages/index/index', search: '' }, false)).toBeNull();
    expect(loginPath('/pages/user/user')).toBe(
      '/pages/login/login?redirect=%2Fpages%2Fuser%2Fuser',
    );
  });

  it('returns only to paths inside the app after login', () => {
    expect(afterLoginPath('')).toBe(HOME);
    expect(afterLoginPath('?redirect=%2Fpages%2Fset%2Fset')).toBe('/pages/set/set');
    expect(afterLoginPath('?redirect=https%3A%2F%2Fevil.example')).toBe(HOME);
    expect(afterLoginPath('?redirect=%2F%2Fevil.example')).toBe(HOME);
    expect(afterLoginPath('?redirect=%2F%5Cevil.example')).toBe(HOME);
    expect(afterLoginPath('?redirect=%2Fpages%2Flogin%2Flogin')).toBe(HOME);
    expect(afterLoginPath('?redirect=%2Fpages%2Flogin%2FregisterCheck')).toBe(HOME);
  });
});
