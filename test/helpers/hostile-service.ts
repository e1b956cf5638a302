// A hostile stand-in for the service on loopback: what a captive portal, a broken proxy or a
// wrong base URL answers. Its `mode` may change between requests:
//   - 'forward': passes every request to the upstream (a real sandbox) and its answer back;
//   - 'gzip' | 'deflate' | 'br' | 'zstd': the upstream's answer, compressed (a proxy's compression): fine;
//   - 'portal': `200 text/html` to everything (a hotel's sign-in page);
//   - 'gzip-bomb' | 'br-bomb': 200 JSON whose compressed body inflates to 100 MiB;
//   - 'short': the upstream's answer with a Content-Length 100 bytes longer than the body, then the
//     connection closed; 'long': a Content-Length of half the body, and the whole body sent;
//   - 'echo-key': a 400 (and headers) quoting the key and parts of it (and the `echo` texts), as a
//     careless server's error would; a tests list answers 200 with them as test names.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as zlib from 'node:zlib';

export type HostileMode =
  'forward' | 'gzip' | 'deflate' | 'br' | 'zstd' | 'portal' | 'gzip-bomb' | 'br-bomb' | 'short' | 'long' | 'echo-key';

export const PORTAL_TITLE = 'Hotel Wi-Fi – Sign in';
const PORTAL =
  `<!DOCTYPE html><html><head><title>Hotel Wi-Fi &ndash; Sign in</title></head><body><form>Room number <input name=room></form></body></html>`.replace(
    '&ndash;',
    '–',
  );

/** What the bombs inflate to: over the 64 MiB answer cap. */
export const BOMB_BYTES = 100 * 1024 * 1024;
let bombs: { gzip: Buffer; br: Buffer } | undefined;
/** Built once per test process: a JSON start and then 100 MiB of spaces, compressed. */
function bomb(kind: 'gzip' | 'br'): Buffer {
  if (!bombs) {
    const plain = Buffer.alloc(BOMB_BYTES, 0x20);
    plain.write('{"tests":[');
    bombs = {
      gzip: zlib.gzipSync(plain, { level: 9 }),
      br: zlib.brotliCompressSync(plain, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }),
    };
  }
  return bombs[kind];
}

export const hasZstd = typeof (zlib as { zstdCompressSync?: unknown }).zstdCompressSync === 'function';

function encode(kind: 'gzip' | 'deflate' | 'br' | 'zstd', body: Buffer): Buffer {
  if (kind === 'gzip') return zlib.gzipSync(body);
  if (kind === 'deflate') return zlib.deflateSync(body);
  if (kind === 'br') return zlib.brotliCompressSync(body);
  return (zlib as unknown as { zstdCompressSync(b: Buffer): Buffer }).zstdCompressSync(body);
}

export interface HostileService {
  url: string;
  mode: HostileMode;
  /** Requests it received (method and path). */
  requests: Array<{ method: string; path: string }>;
  close(): Promise<void>;
}

async function forward(upstream: string, req: IncomingMessage, body: Buffer) {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers))
    if (typeof v === 'string' && !['host', 'connection', 'content-length', 'accept-encoding'].includes(k))
      headers[k] = v;
  const res = await fetch(`${upstream}${req.url}`, {
    method: req.method,
    headers,
    body: body.length ? body : undefined,
  });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    body: Buffer.from(await res.arrayBuffer()),
  };
}

/** Writes an answer with framing of our choosing (node:http would refuse a wrong Content-Length). */
function raw(res: ServerResponse, status: number, type: string, length: number, body: Buffer, close: boolean) {
  const socket = res.socket!;
  socket.write(
    `HTTP/1.1 ${status} OK\r\ncontent-type: ${type}\r\ncontent-length: ${length}\r\nconnection: close\r\n\r\n`,
  );
  socket.write(body);
  if (close) socket.end();
  else setTimeout(() => socket.end(), 50);
}

export async function startHostileService(
  opts: { upstream?: string; key?: string; echo?: string[] } = {},
): Promise<HostileService> {
  const svc: HostileService = { url: '', mode: 'forward', requests: [], close: async () => undefined };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      svc.requests.push({ method: req.method!, path: req.url! });
      answer(svc.mode, req, Buffer.concat(chunks), res).catch((err: unknown) => {
        res.writeHead(599, { 'content-type': 'text/plain' });
        res.end(String(err));
      });
    });
  });

  async function answer(mode: HostileMode, req: IncomingMessage, body: Buffer, res: ServerResponse) {
    if (mode === 'portal') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return void res.end(PORTAL);
    }
    if (mode === 'gzip-bomb' || mode === 'br-bomb') {
      const kind = mode === 'gzip-bomb' ? 'gzip' : 'br';
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': kind });
      return void res.end(bomb(kind));
    }
    if (mode === 'echo-key') {
      const key = String(req.headers['x-api-key'] ?? opts.key ?? '');
      const all = [key, key.slice(0, -4), key.slice(2, -2), encodeURIComponent(key), ...(opts.echo ?? [])];
      const headers = { 'content-type': 'application/json', 'x-echo-key': key, 'x-echo-part': key.slice(0, -4) };
      if (req.method === 'GET' && /^\/v3\/tests(\?|$)/.test(req.url!)) {
        res.writeHead(200, headers);
        const tests = all.map((t, i) => ({ testId: 1001 + i, testName: `Test ${t}`, testStatus: 'Active' }));
        return void res.end(JSON.stringify({ tests, totalCount: tests.length }));
      }
      res.writeHead(400, headers);
      return void res.end(JSON.stringify({ errors: [`Invalid subscription key ${all.join(', or ')}`] }));
    }
    const up = await forward(opts.upstream!, req, body);
    if (mode === 'short' || mode === 'long') {
      const length = mode === 'short' ? up.body.length + 100 : Math.floor(up.body.length / 2);
      return raw(res, up.status, up.type, length, up.body, mode === 'short');
    }
    if (mode === 'forward' || !up.body.length) {
      res.writeHead(up.status, up.type ? { 'content-type': up.type } : {});
      return void res.end(up.body);
    }
    const encoded = encode(mode, up.body);
    res.writeHead(up.status, { 'content-type': up.type, 'content-encoding': mode, 'content-length': encoded.length });
    res.end(encoded);
  }

  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  svc.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  svc.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return svc;
}
