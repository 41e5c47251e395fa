import { afterAll, beforeAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, startApp, type AppUnderTest } from './browser';

/** What a browser journey's `describe` reads inside its tests: set in its first beforeAll. */
export interface E2eFixture {
  /** The embedded app of this describe (read it inside hooks and tests, not at collection). */
  readonly app: AppUnderTest;
  /** Chromium for this describe. */
  readonly browser: Browser;
  /**
   * A JSON request to the app (`route` from the root, e.g. `/api/orders`): a string body is sent
   * as JSON (a FormData body keeps its own multipart type), `token` is the bearer session, and
   * `init.headers` are added last. An answer that is not 2xx throws `${method} ${route}: ${status}
   * ${text}`; an empty answer (204) is `undefined`.
   */
  api<T>(route: string, init?: RequestInit, token?: string): Promise<T>;
}

/**
 * Registers the set-up of a browser journey, at the top of a `describe`: a beforeAll that starts
 * the embedded app with `env` and launches Chromium side by side (180 s), and an afterAll that
 * closes the browser and disposes of the app. `env` may be a function, run at the start of the
 * beforeAll (after the hooks registered before this call), for values known only then. The
 * describe's own beforeAll hooks registered after this call run after it (vitest runs them in
 * order), and its own afterAll hooks registered after it run before its teardown.
 */
export function useAppAndBrowser(
  env:
    Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>) = {},
): E2eFixture {
  let app: AppUnderTest | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    const appEnv = typeof env === 'function' ? await env() : env;
    [app, browser] = await Promise.all([startApp(appEnv), launchBrowser()]);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await app?.dispose();
  });

  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the ${what} is not started (read it inside a test)`);
    return value;
  };

  return {
    get app() {
      return started(app, 'app');
    },
    get browser() {
      return started(browser, 'browser');
    },
    async api<T>(route: string, init: RequestInit = {}, token?: string): Promise<T> {
      const res = await fetch(`${started(app, 'app').url}${route}`, {
        ...init,
        headers: {
          ...(typeof init.body === 'string' ? { 'Content-Type': 'application/json' } : {}),
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...(init.headers as Record<string, string> | undefined),
        },
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${route}: ${res.status} ${text}`);
      return (text ? JSON.parse(text) : undefined) as T;
    },
  };
}
