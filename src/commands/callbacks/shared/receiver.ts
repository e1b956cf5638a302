// The HTTP side of `assess callbacks listen`: a small node:http server that accepts completion
// notifications (POST on one path) and checks the optional token. Store first, judge after: every
// body is stored (the inbox; a body that is not JSON is kept quarantined, with the reason) before
// the answer, and everything stored is answered 200 — what cannot be understood is listed later
// with the reason (`callbacks inbox`), never refused, since the service drops what it cannot
// deliver after 5 tries. Only then is the notification handed on, so a slow --exec or
// --forward-to never delays the service's delivery (which gives up after a few seconds). A
// request this listener forwarded itself (its `assess-forwarded-by` carries our id) is refused
// with 508: stored and forwarded again, it would go round without end (shared/self-forward.ts).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReadCallback } from '../../../api/read/callback.js';
import { FORWARDED_BY, forwardedBy } from './self-forward.js';

export const MAX_BODY_BYTES = 1024 * 1024;

export interface Received {
  /** The body with the vendor's field names (read tolerantly: any casing, numbers as strings). */
  body: Record<string, unknown>;
  /** What the tolerant reader made of it (ok, problem, invitation, status). */
  read: ReadCallback;
  version: 'v3' | 'v2';
  /** The body exactly as it arrived (forwarded unchanged). */
  raw: Buffer;
  contentType: string;
  remote: string;
  at: Date;
  /** The request headers (the inbox keeps a few, e.g. webhook-signature). */
  headers?: IncomingMessage['headers'];
}

export interface Rejected {
  status: number;
  reason: string;
  remote: string;
  method: string;
  path: string;
}

export interface ReceiverOptions {
  host: string;
  port: number;
  /** The only path accepted, e.g. `/hook`. */
  path: string;
  /** When set, requests must carry `?token=<token>`. */
  token?: string;
  /** This listener's id: a request whose `assess-forwarded-by` names it is refused (508 Loop Detected). */
  listenerId?: string;
  onNotification(n: Received): void;
  /** When set, awaited before the 200 (the store's commit); a failure answers 503 so the sender retries. */
  persist?(n: Received): Promise<void>;
  /** A body that is not JSON: stored here before the 200 (without it, such a body is refused with 400). */
  quarantine?(q: {
    raw: Buffer;
    reason: string;
    headers: IncomingMessage['headers'];
    at: Date;
    remote: string;
  }): Promise<void>;
  onRejected(r: Rejected): void;
  /** GET /healthz, /readyz and /metrics (no token: they hold no notification; see docs). */
  probes?: Probes;
  /** A TLS server to use instead of plain HTTP (the caller keeps its certificate fresh). */
  tls?: import('node:https').ServerOptions;
}

export interface Probes {
  ready(): { ok: boolean; body: Record<string, unknown> };
  metrics(): string;
}

export interface RunningReceiver {
  /** The address bound, as the server reports it (0.0.0.0 or :: for every local address). */
  address: string;
  port: number;
  /** The URL to register as callbackUrl (with the token when there is one). */
  callbackUrl: string;
  /** The server (TLS: its certificate is replaced with setSecureContext). */
  server: import('node:net').Server & { setSecureContext?(o: import('node:tls').SecureContextOptions): void };
  close(): Promise<void>;
}

/** The token of a request: `Authorization: Bearer T` (what a reverse proxy adds) or `?token=T`. */
function tokenOf(req: IncomingMessage, url: URL): string | null {
  const auth = req.headers.authorization;
  const bearer = typeof auth === 'string' ? /^Bearer\s+(\S+)$/i.exec(auth.trim()) : null;
  return bearer ? bearer[1]! : url.searchParams.get('token');
}

function sameToken(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function answer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) return resolve(null); // too large: answer 413, stop collecting
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** A random id for one listener run (its forwards carry it in `assess-forwarded-by`). */
export const newListenerId = () => randomBytes(9).toString('base64url');

/** `http://host:port/path?token=…` with loopback for a wildcard bind and brackets for IPv6. */
export function callbackUrlFor(host: string, port: number, path: string, token?: string, scheme = 'http'): string {
  const h = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
  const url = new URL(`${scheme}://${h}:${port}${path}`);
  if (token) url.searchParams.set('token', token);
  return url.toString();
}

export async function startReceiver(opts: ReceiverOptions): Promise<RunningReceiver> {
  // the notification schemas are built when a receiver starts, not when the command loads
  const { readCallback } = await import('../../../api/read/callback.js');
  const { parseJsonLossless } = await import('../../../api/read/body.js');
  const readNotification = (text: string) => readCallback(parseJsonLossless(text)); // long ids kept as digits
  const requests: InFlight = { count: 0, drained: null };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    requests.count++;
    res.once('close', () => {
      if (--requests.count === 0) requests.drained?.();
    });
    const url = new URL(req.url ?? '/', 'http://receiver.invalid');
    const remote = req.socket.remoteAddress ?? '?';
    const reject: Reject = (status, reason, headers = {}) => {
      answer(res, status, { error: reason }, headers);
      opts.onRejected({ status, reason, remote, method: req.method ?? '?', path: url.pathname });
    };
    if (opts.probes && req.method === 'GET' && probe(opts.probes, url.pathname, res)) return;
    const refused = refusal(opts, req, url);
    if (refused) return reject(...refused);
    readBody(req).then(
      (raw) => take(opts, { req, res, remote, reject }, raw, readNotification),
      () => reject(400, 'the request body could not be read'),
    );
  };
  const server = opts.tls ? (await import('node:https')).createServer(opts.tls, handle) : createServer(handle);
  await new Promise<void>((resolve, fail) => {
    server.once('error', fail);
    server.listen(opts.port, opts.host, () => {
      server.off('error', fail);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    address,
    port,
    server,
    callbackUrl: callbackUrlFor(opts.host, port, opts.path, opts.token, opts.tls ? 'https' : 'http'),
    close: () => closeServer(server, requests),
  };
}

/** The requests being answered, and what to call once there are none. */
interface InFlight {
  count: number;
  drained: (() => void) | null;
}

type Reject = (status: number, reason: string, headers?: Record<string, string>) => void;

/** One request being answered: what it came with, and how to refuse it. */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  remote: string;
  reject: Reject;
}

/** Why a request is refused before its body is read (path, method, token, a loop); null when it is not. */
function refusal(
  opts: ReceiverOptions,
  req: IncomingMessage,
  url: URL,
): [status: number, reason: string, headers?: Record<string, string>] | null {
  if (url.pathname !== opts.path) return [404, `no receiver at ${url.pathname} (listening on ${opts.path})`];
  if (req.method !== 'POST') return [405, `${req.method} is not accepted; notifications are POSTed`, { allow: 'POST' }];
  const given = tokenOf(req, url);
  if (opts.token !== undefined && !sameToken(given, opts.token))
    return [401, given !== null ? 'wrong token' : 'missing ?token= (or an Authorization: Bearer header)'];
  if (opts.listenerId !== undefined && forwardedBy(req.headers[FORWARDED_BY]).includes(opts.listenerId))
    return [
      508,
      'loop detected: this listener forwarded this request here itself (--forward-to reaches this listener); not ' +
        'stored or forwarded again',
    ];
  return null;
}

/** A body read: stored (or quarantined when it is not JSON), then answered 200 and handed on. */
function take(
  opts: ReceiverOptions,
  x: Exchange,
  raw: Buffer | null,
  readNotification: (text: string) => ReadCallback,
) {
  const { req, res, remote, reject } = x;
  const storeFailed = (err: Error) => reject(503, `the notification could not be stored: ${err.message}`);
  if (raw === null) return reject(413, `body larger than ${MAX_BODY_BYTES} bytes`);
  if (raw.length === 0) return reject(400, 'empty body: a notification is a JSON object');
  const at = new Date();
  const text = raw.toString('utf8');
  let notJson: string | null = null;
  try {
    JSON.parse(text);
  } catch (err) {
    notJson = `the body is not JSON (${(err as Error).message})`;
  }
  if (notJson !== null) {
    if (!opts.quarantine) return reject(400, `${notJson}; it is not kept (the listener runs with --no-inbox)`);
    return void opts
      .quarantine({ raw, reason: notJson, headers: req.headers, at, remote })
      .then(() => answer(res, 200, { received: true, quarantined: true }), storeFailed);
  }
  const read = readNotification(text);
  const n: Received = {
    body: read.value,
    read,
    version: read.version,
    raw,
    contentType: req.headers['content-type'] ?? 'application/json',
    remote,
    at,
    headers: req.headers,
  };
  (opts.persist ? opts.persist(n) : Promise.resolve()).then(() => {
    answer(res, 200, { received: true });
    opts.onNotification(n);
  }, storeFailed);
}

/**
 * Takes no new connection; a request being stored is answered once its commit is done (up to a
 * moment), then every connection is closed.
 */
async function closeServer(
  server: Pick<Server, 'close' | 'closeIdleConnections' | 'closeAllConnections'>,
  requests: InFlight,
): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  if (requests.count > 0)
    await new Promise<void>((resolve) => {
      requests.drained = resolve;
      setTimeout(resolve, 1_000).unref();
    });
  server.closeAllConnections();
  await closed;
}

/** Answers GET /healthz, /readyz, /metrics; false for any other path. */
function probe(p: Probes, path: string, res: ServerResponse): boolean {
  if (path === '/healthz') answer(res, 200, { status: 'ok' });
  else if (path === '/readyz') {
    const r = p.ready();
    answer(res, r.ok ? 200 : 503, r.body);
  } else if (path === '/metrics') {
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
    res.end(p.metrics());
  } else return false;
  return true;
}
