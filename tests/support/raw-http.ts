import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

/**
 * HTTP for tests that must control every byte: a raw client over one keep-alive agent (supertest
 * re-encodes bodies: a Buffer with a JSON type becomes JSON) and hand-built multipart bodies.
 */

export interface RawRequest {
  method: string;
  /** Path and query, already %-encoded (or deliberately broken). */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}
export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  contentType: string;
  text: string;
  json: unknown;
}

/** The request as one line to paste into a report or a curl command. */
export function reproOf(req: RawRequest): string {
  const body =
    req.body === undefined
      ? ''
      : Buffer.isBuffer(req.body)
        ? ` body(base64, ${req.body.length} bytes)=${req.body.subarray(0, 300).toString('base64')}`
        : ` body(${req.body.length} chars)=${JSON.stringify(req.body.slice(0, 300))}`;
  return `${req.method} ${req.path.slice(0, 300)} headers=${JSON.stringify(req.headers ?? {})}${body}`;
}

/**
 * Listens on a free loopback port and sends raw requests over one keep-alive agent: supertest
 * would re-encode bodies (a Buffer with a JSON type becomes JSON) and start a server per call.
 */
export async function rawServer(app: Express) {
  const server = http.createServer(app);
  // No idle timeout: a busy machine could otherwise close a kept-alive socket just as the next
  // request is written on it (ECONNRESET that says nothing about the app). close() ends them.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const send = (req: RawRequest) =>
    new Promise<RawAnswer>((resolve, reject) => {
      const body = req.body === undefined ? undefined : Buffer.from(req.body);
      const headers: Record<string, string> = { ...req.headers };
      if (
        body &&
        !Object.keys(headers).some((h) => /^(content-length|transfer-encoding)$/i.test(h))
      )
        headers['content-length'] = String(body.length);
      const r = http.request(
        { host: '127.0.0.1', port, method: req.method, path: req.path, headers, agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const contentType = res.headers['content-type'] ?? '';
            let json: unknown;
            try {
              if (contentType.startsWith('application/json')) json = JSON.parse(text);
            } catch {
              // Not JSON after all (or no body, as for HEAD): `json` stays undefined.
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, contentType, text, json });
          });
          res.on('error', reject);
        },
      );
      r.on('error', reject);
      r.end(body);
    });
  const close = async () => {
    agent.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { send, close, port };
}

/**
 * A multipart body built by hand, so it can be wrong in every way a parser must survive: `parts`
 * are text fields (`value` string) or files (`file` bytes), in order.
 */
export function multipart(
  parts: { name: string; value?: string; file?: Buffer; filename?: string; type?: string }[],
  boundary = 'fuzzBoundary7MA4YWxkTrZu0gW',
): { body: Buffer; type: string } {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = p.file
      ? `form-data; name="${p.name}"; filename="${p.filename ?? 'f.png'}"`
      : `form-data; name="${p.name}"`;
    const type = p.file ? `\r\nContent-Type: ${p.type ?? 'image/png'}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`));
    chunks.push(p.file ?? Buffer.from(p.value ?? '', 'utf8'));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}
