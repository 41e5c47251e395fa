import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { initialScripts, initialSources, onDemand } from '@tests/load/budgets/initial-js';

const distDir = path.resolve(import.meta.dirname, '../../dist/client');

/**
 * What a phone downloads and runs before its first page (the entry script and its
 * modulepreloads, the build global-setup made): the chart library, the locale files and zod each
 * come with the screens that need them, not with every first visit (`npm run budgets` weighs it).
 */
describe('the first page’s JavaScript', () => {
  const sources = initialSources(distDir, initialScripts(distDir));

  it('has its source maps, so what it holds can be read', () => {
    expect(sources.length).toBeGreaterThan(10);
    expect(sources.some((s) => s.endsWith('client/src/main.tsx'))).toBe(true);
  });

  it.each(Object.keys(onDemand) as (keyof typeof onDemand)[])('leaves out %s', (what) => {
    expect(sources.filter((s) => onDemand[what].test(s))).toEqual([]);
  });
});
