// `callbacks listen --forward-to` must not reach the listener itself: each notification would be
// stored and forwarded again without end (545 in 3 s were seen). Two guards:
// - at start-up, the target's host — as written (localhost, 127.0.0.1, [::1]) and as resolved
//   (a host name, another address of this machine when bound to 0.0.0.0 or ::) — against the
//   addresses the listener is bound to, on its port and path: exit 2;
// - at run time, for what the first cannot see (a relay, a tunnel, another listener forwarding
//   back): every forward carries `assess-forwarded-by` with the ids of the listeners it went
//   through; a request that carries this listener's own id is refused (508) and not stored or
//   forwarded again.

/** The header that carries the ids of the listeners a forwarded notification went through. */
export const FORWARDED_BY = 'assess-forwarded-by';

/** At most this many ids are carried (the most recent): a header must not grow without end. */
const MAX_HOPS = 16;

/** The listener ids in an `assess-forwarded-by` header (comma-separated; repeated headers joined). */
export function forwardedBy(value: string | string[] | undefined): string[] {
  const text = Array.isArray(value) ? value.join(',') : (value ?? '');
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The header value a listener forwards with: the ids it received, then its own. */
export function forwardedByValue(received: string | string[] | undefined, listenerId: string): string {
  return [...forwardedBy(received).filter((id) => id !== listenerId), listenerId].slice(-MAX_HOPS).join(', ');
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1', '0.0.0.0', '[::]']);

/** Whether the URL lands on this listener as written: a local host name, its port and its path. */
export function forwardsToItself(url: string, host: string, port: number, path: string): boolean {
  const u = new URL(url);
  const to = u.hostname.toLowerCase();
  const local = LOOPBACK.has(to) || to === host.toLowerCase() || to === `[${host.toLowerCase()}]`;
  return local && sameEndpoint(u, port, path);
}

const sameEndpoint = (u: URL, port: number, path: string) =>
  u.protocol === 'http:' && Number(u.port || 80) === port && u.pathname === path;

export interface SelfCheckDeps {
  /** The addresses a host name resolves to (default: dns.lookup, all of them). */
  lookup?(host: string): Promise<string[]>;
  /** This machine's interface addresses (default: os.networkInterfaces()). */
  interfaces?(): string[];
}

/**
 * Whether the URL reaches this listener, bound to `address` (what the server reports: 0.0.0.0 and
 * :: mean every local address) on `port`: as written, or through what its host resolves to. A
 * name that does not resolve (or not within 3 s) is not this listener: the run-time guard stays.
 */
export async function reachesItself(
  url: string,
  bound: { address: string; port: number; path: string },
  deps: SelfCheckDeps = {},
): Promise<boolean> {
  if (forwardsToItself(url, bound.address, bound.port, bound.path)) return true;
  const u = new URL(url);
  if (!sameEndpoint(u, bound.port, bound.path)) return false;
  const lookup = deps.lookup ?? lookupAll;
  const addresses = await lookup(u.hostname.replace(/^\[(.*)\]$/, '$1')).catch(() => []);
  if (!addresses.length) return false;
  const local = isBoundAddress(bound.address, deps.interfaces ?? interfaceAddresses);
  return addresses.some(local);
}

/** Which addresses connect to a server bound to `bound`. */
function isBoundAddress(bound: string, interfaces: () => string[]): (address: string) => boolean {
  const b = normal(bound);
  const ipv4 = (a: string) => !a.includes(':');
  if (b !== '0.0.0.0' && b !== '::') return (a) => connectsTo(normal(a)) === b;
  // a wildcard bind: every local address (the whole loopback range); :: takes IPv4 too (dual stack)
  const own = new Set(interfaces().map(normal));
  return (address) => {
    const a = connectsTo(normal(address));
    if (b === '0.0.0.0' && !ipv4(a)) return false;
    return own.has(a) || a.startsWith('127.') || a === '::1';
  };
}

/** A connection to the unspecified address goes to loopback. */
const connectsTo = (a: string) => (a === '0.0.0.0' ? '127.0.0.1' : a === '::' ? '::1' : a);

/** One spelling per address: IPv4-mapped IPv6 as IPv4, IPv6 compressed and lower case, no zone. */
function normal(address: string): string {
  const a = address.toLowerCase().replace(/%.*$/, '');
  if (!a.includes(':')) return a;
  let host: string;
  try {
    host = new URL(`http://[${a}]/`).hostname.slice(1, -1);
  } catch {
    return a;
  }
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (mapped) {
    const [hi, lo] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return host;
}

async function lookupAll(host: string): Promise<string[]> {
  const { lookup } = await import('node:dns/promises');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<[]>((resolve) => (timer = setTimeout(() => resolve([]), 3_000)));
  try {
    return await Promise.race([lookup(host, { all: true }).then((r) => r.map((x) => x.address)), late]);
  } finally {
    clearTimeout(timer);
  }
}

function interfaceAddresses(): string[] {
  const all = process.getBuiltinModule('node:os').networkInterfaces();
  return Object.values(all).flatMap((list) => (list ?? []).map((i) => i.address));
}
