import { describe, expect, it } from 'vitest';
import { buildIdFrom } from './service-worker';

describe('service worker build id', () => {
  const build = [
    '/assets/index-DcoTrYnL.js',
    '/assets/icons-DKNXdcLU.js',
    '/assets/index-Riwq07oT.css',
  ];

  it('is short, URL-safe and the same for the same build in any order', () => {
    const id = buildIdFrom(build);
    expect(id).toMatch(/^[0-9a-z]{1,7}$/);
    expect(buildIdFrom([...build].reverse())).toBe(id);
  });

  it('changes when any hashed name changes (script or stylesheet)', () => {
    const id = buildIdFrom(build);
    expect(buildIdFrom(build.map((u) => u.replace('Riwq07oT', 'Riwq07oU')))).not.toBe(id);
    expect(buildIdFrom(build.map((u) => u.replace('DcoTrYnL', 'XcoTrYnL')))).not.toBe(id);
    expect(buildIdFrom(build.slice(1))).not.toBe(id);
  });
});
