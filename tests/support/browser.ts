import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { chromiumPath } from './tiers';
import { freePort } from './redis-server';
import { holdsListener, startEntry, waitForHttp, type RunningProcess } from './processes';
import { oneAddressSocketEnv } from './socket-limits';
import { seedDataDir } from './pglite-template';

/** Debian's Chromium, headless, with the flags this sandboxed machine needs (no network beyond loopback). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/**
 * A phone-sized page (390×844 unless `viewport` says otherwise) in the given language, signed in
 * when given a session `token`, collecting page errors and, unless `consoleErrors` is false, the
 * console's errors too.
 */
export async function phonePage(
  browser: Browser,
  {
    locale = 'zh-CN',
    viewport = { width: 390, height: 844 },
    token,
    consoleErrors = true,
  }: {
    locale?: string;
    viewport?: { width: number; height: number };
    token?: string;
    consoleErrors?: boolean;
  } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport,
    locale,
    deviceScaleFactor: 1,
    hasTouch: true,
  });
  if (token)
    await context.addInitScript(
      `localStorage.setItem('token', ${JSON.stringify(JSON.stringify(token))})`,
    );
  const page = await context.newPage();
  const errors: string[] = [];
  if (consoleErrors)
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

/**
 * The embedded app (`server/src/main/all.ts`) as a child process on a free port with its own data
 * directory; `restart()` stops it and starts it again on the same port and data (a server outage).
 */
export interface AppUnderTest {
  url: string;
  port: number;
  dataDir: string;
  proc: RunningProcess;
  stop(): Promise<void>;
  start(): Promise<void>;
  dispose(): Promise<void>;
}

export async function startApp(env: Record<string, string> = {}): Promise<AppUnderTest> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trade-e2e-'));
  const app: AppUnderTest = {
    url: '',
    port: 0,
    dataDir,
    proc: null as unknown as RunningProcess,
    async start() {
      // The migrated database copied in, not made anew: initdb alone takes seconds.
      await seedDataDir(path.join(dataDir, 'db'));
      app.proc = startEntry('server/src/main/all.ts', {
        PORT: String(app.port),
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        REDIS_URL: '',
        LOG_LEVEL: 'warn',
        // Every page of every journey connects from 127.0.0.1: one address, not many users.
        ...oneAddressSocketEnv,
        // Months of coarse history cost seconds per first start; the journeys that read the long
        // charts ask for it.
        SIM_HISTORY_DAYS: '0',
        ...env,
      });
      try {
        await untilReady(app);
      } catch (err) {
        // Never leave a half-started app behind when readiness times out.
        await app.proc.stop('SIGKILL');
        throw err;
      }
    },
    async stop() {
      await app.proc.stop('SIGTERM');
    },
    async dispose() {
      await app.proc.stop('SIGTERM');
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  // The first start takes a free port; another process may take it before the app binds it (a
  // port is only free when asked), and then the app starts again on another.
  for (let attempt = 1; ; attempt++) {
    app.port = await freePort();
    app.url = `http://127.0.0.1:${app.port}`;
    try {
      await app.start();
      return app;
    } catch (err) {
      if (!(err instanceof PortTaken) || attempt === 3) throw err;
    }
  }
}

class PortTaken extends Error {}

/**
 * Until the app answers ready on its port and holds that port itself; an app that exits first (a
 * crash, a port taken) fails here with its output, never by a later request refused.
 */
async function untilReady(app: AppUnderTest): Promise<void> {
  const proc = app.proc;
  await Promise.race([
    waitForHttp(`${app.url}/readyz`, 200, 120_000),
    proc.exited.then((code) => {
      const output = proc.output();
      if (output.includes('EADDRINUSE')) throw new PortTaken(`port ${app.port} was taken`);
      throw new Error(`the app exited (${code}) before it was ready:\n${output}`);
    }),
  ]);
  if (!holdsListener(proc.child.pid ?? 0, app.port))
    throw new PortTaken(`another process answered ready on port ${app.port}`);
}
