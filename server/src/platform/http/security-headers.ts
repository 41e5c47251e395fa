import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

/** The origin of an https logo URL (a same-origin path needs none). */
const logoOrigin = (url: string | undefined): string[] =>
  url?.startsWith('https://') ? [new URL(url).origin] : [];

/** helmet's headers with this policy, as a list (helmet run once against a recording response). */
function helmetHeaders(scriptSources: string, logoUrl: string | undefined): [string, string][] {
  const middleware = helmet({
    contentSecurityPolicy: {
      directives: {
        // The client opens its websocket to the same origin; allow ws(s) for it.
        'connect-src': ["'self'", 'ws:', 'wss:'],
        // index.html's one inline script (Home's first paint, client/src/app/home-shell.ts), by
        // its hash: no other inline script runs.
        'script-src': ["'self'", ...(scriptSources ? [scriptSources] : [])],
        // An https APP_LOGO_URL is shown from its own origin.
        'img-src': ["'self'", 'data:', 'blob:', ...logoOrigin(logoUrl)],
      },
    },
  });
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: string) => void headers.push([name, value]),
    removeHeader: () => undefined,
  };
  let passed = false;
  middleware(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    () => void (passed = true),
  );
  if (!passed) throw new Error('helmet did not pass the request on');
  return headers;
}

/**
 * The CSP sources of index.html's inline scripts ('sha256-…' each), read again when the file
 * changes (a rebuild while the server runs): the file is looked at no more than once a second.
 * None while the client is not built.
 */
function inlineScriptHashes(dir: string) {
  const file = path.join(dir, 'index.html');
  let seen: { mtimeMs: number; checkedAt: number; sources: string } | undefined;
  return (now: number): string => {
    if (seen && now - seen.checkedAt < 1000) return seen.sources;
    let mtimeMs: number;
    try {
      mtimeMs = fs.statSync(file).mtimeMs;
    } catch {
      seen = { mtimeMs: -1, checkedAt: now, sources: '' };
      return '';
    }
    if (seen?.mtimeMs !== mtimeMs) {
      const html = fs.readFileSync(file, 'utf8');
      const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
      const sources = scripts
        .map((js) => `'sha256-${createHash('sha256').update(js).digest('base64')}'`)
        .join(' ');
      seen = { mtimeMs, checkedAt: now, sources };
    }
    seen.checkedAt = now;
    return seen.sources;
  };
}

/**
 * helmet's security headers on every response (the CSP allows index.html's inline scripts by
 * their hashes). helmet works a policy out on each call; here it runs once per set of hashes, and
 * each response only copies the headers: helmet per request cost a placement about a fifth of its
 * CPU.
 */
export function securityHeaders(o: {
  clientDir: string;
  logoUrl?: string;
  now?: () => number;
}): RequestHandler {
  const now = o.now ?? Date.now;
  const hashes = inlineScriptHashes(o.clientDir);
  let current: { sources: string; headers: [string, string][] } | undefined;
  return (_req, res, next) => {
    const sources = hashes(now());
    if (current?.sources !== sources)
      current = { sources, headers: helmetHeaders(sources, o.logoUrl) };
    for (const [name, value] of current.headers) res.setHeader(name, value);
    next();
  };
}
