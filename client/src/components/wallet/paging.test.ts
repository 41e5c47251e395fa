import { describe, expect, it } from 'vitest';
import { appendPage, mergeFirstPage } from './paging';

const rows = (...ids: number[]) => ids.map((id) => ({ id: String(id), v: 'old' }));

describe('paging', () => {
  it('appends a page without repeating rows', () => {
    expect(appendPage(rows(9, 8), { items: rows(8, 7), nextCursor: '7' }).map((r) => r.id)).toEqual(
      ['9', '8', '7'],
    );
  });

  it('puts a fresh first page on top of the older pages already loaded', () => {
    const fresh = [{ id: '12', v: 'new' }, ...rows(11, 10)].map((r) =>
      r.id === '11' ? { ...r, v: 'changed' } : r,
    );
    const merged = mergeFirstPage(rows(11, 10, 9, 8), '8', { items: fresh, nextCursor: '10' });
    expect(merged.items.map((r) => `${r.id}:${r.v}`)).toEqual([
      '12:new',
      '11:changed',
      '10:old',
      '9:old',
      '8:old',
    ]);
    expect(merged.next).toBe('8');
  });

  it('takes the first page alone when nothing older was loaded, or when it is the whole list', () => {
    expect(mergeFirstPage(rows(10), '10', { items: rows(11, 10), nextCursor: '10' })).toEqual({
      items: rows(11, 10),
      next: '10',
    });
    expect(mergeFirstPage(rows(3, 2), null, { items: rows(4, 3, 2), nextCursor: null })).toEqual({
      items: rows(4, 3, 2),
      next: null,
    });
    expect(mergeFirstPage(rows(3), null, { items: [], nextCursor: null })).toEqual({
      items: [],
      next: null,
    });
  });
});
