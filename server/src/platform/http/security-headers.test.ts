import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import helmet from 'helmet';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { securityHeaders } from './security-headers';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'headers-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const sha = (js: string) => `'sha256-${createHash('sha256').update(js).digest('base64')}'`;

/** An app with the middleware in front of a JSON route, on a clock the test moves. */
function appWith(clock: { ms: number }, logoUrl?: string) {
  const app = express();
  app.disable('x-powered-by');
  app.use(securityHeaders({ clientDir: dir, logoUrl, now: () => clock.ms }));
  app.get('/x', (_req, res) => res.json({ ok: true }));
  return app;
}
const cspOf = async (app: express.Express) =>
  String((await request(app).get('/x').expect(200)).headers['content-security-policy']);

describe('security headers', () => {
  it("are helmet's own headers for the same policy, on every response", async () => {
    fs.writeFileSync(path.join(dir, 'index.html'), '<html><script>paint()</script></html>');
    const reference = express();
    reference.disable('x-powered-by');
    reference.use(
      helmet({
        contentSecurityPolicy: {
          directives: {
            'connect-src': ["'self'", 'ws:', 'wss:'],
            'script-src': ["'self'", sha('paint()')],
            'img-src': ["'self'", 'data:', 'blob:', 'https://cdn.example.com'],
          },
        },
      }),
    );
    reference.get('/x', (_req, res) => res.json({ ok: true }));
    const ours = appWith({ ms: 0 }, 'https://cdn.example.com/logo.png');
    const pick = (h: Record<string, string>) => {
      const { date: _date, etag: _etag, ...rest } = h;
      return rest;
    };
    const [a, b] = await Promise.all([request(ours).get('/x'), request(reference).get('/x')]);
    expect(pick(a.headers as Record<string, string>)).toEqual(
      pick(b.headers as Record<string, string>),
    );
    expect(a.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'strict-transport-security': expect.stringContaining('max-age='),
    });
    expect(a.headers['content-security-policy']).toContain(`script-src 'self' ${sha('paint()')}`);
  });

  it("follows a rebuild of index.html: the new script's hash within a second", async () => {
    fs.writeFileSync(path.join(dir, 'index.html'), '<html><script>one()</script></html>');
    const clock = { ms: 1_000_000 };
    const app = appWith(clock);
    expect(await cspOf(app)).toContain(sha('one()'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<html><script>two()</script></html>');
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(path.join(dir, 'index.html'), later, later);
    clock.ms += 500; // looked at no more than once a second
    expect(await cspOf(app)).toContain(sha('one()'));
    clock.ms += 600;
    const csp = await cspOf(app);
    expect(csp).toContain(sha('two()'));
    expect(csp).not.toContain(sha('one()'));
  });

  it('allows no inline script while the client is not built', async () => {
    fs.rmSync(path.join(dir, 'index.html'));
    expect(await cspOf(appWith({ ms: 0 }))).toMatch(/script-src 'self';/);
  });
});
