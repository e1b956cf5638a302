// A loopback proxy in front of a sandbox for tests that stop a run part-way (kill -9, Ctrl-C):
// every request is passed on to the sandbox at once (the service acts), the first `open` ones
// are answered, and every later answer is held until `release()` — so when the test stops the
// run, it has requests in flight whose effect happened and rows left to do, however fast or slow
// this machine is. `open(n)` answers what is held and n more; `release()`, everything from now.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GateProxy {
  url: string;
  /** Answers held now (requests in flight that the service already acted on). */
  held(): number;
  /** Requests taken and not yet passed on to the sandbox (a killed client's included). */
  unsent(): number;
  /** Answers what is held and the next `n`, then holds again. */
  open(n: number): void;
  /** Answers what is held, and everything from now on. */
  release(): void;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

export async function gateProxy(upstream: string, first: number): Promise<GateProxy> {
  let answered = 0;
  let open = first;
  let released = false;
  let unsent = 0;
  const held: Array<() => void> = [];
  const pass = async (req: IncomingMessage, body: Buffer, res: ServerResponse) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(k) && typeof v === 'string') headers[k] = v;
    let answer: () => void;
    try {
      const got = await fetch(`${upstream}${req.url}`, {
        method: req.method,
        headers,
        body: body.length ? body : undefined,
      });
      const bytes = Buffer.from(await got.arrayBuffer());
      const type = got.headers.get('content-type');
      answer = () => res.writeHead(got.status, type ? { 'content-type': type } : {}).end(bytes);
    } catch {
      answer = () => res.destroy();
    } finally {
      unsent--;
    }
    if (released || answered < open) {
      answered++;
      answer();
    } else held.push(answer);
  };
  const server = createServer((req, res) => {
    unsent++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void pass(req, Buffer.concat(chunks), res));
    req.on('close', () => {
      if (!req.complete) unsent--; // cut off before its end: never passed on
    });
    res.on('error', () => undefined); // a killed client
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => held.length,
    unsent: () => unsent,
    open: (n) => {
      answered = 0;
      open = n;
      for (const answer of held.splice(0)) answer();
    },
    release: () => {
      released = true;
      for (const answer of held.splice(0)) answer();
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
