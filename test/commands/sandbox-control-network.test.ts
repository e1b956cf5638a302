// `assess sandbox <verb> --url U` against an address that is not a working sandbox: --timeout
// bounds an address that accepts and never answers, and a network failure is exit 6 (GUIDE §2),
// as for every command that talks to the service.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess as runAssess } from '../helpers/in-process.js';

let silent: Server;
const sockets: Socket[] = [];
let silentUrl = '';
let closedUrl = '';

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

beforeAll(async () => {
  silent = createServer((s) => sockets.push(s)); // accepts, reads, never answers
  silentUrl = await listen(silent);
  const gone = createServer();
  closedUrl = await listen(gone);
  await new Promise((r) => gone.close(r)); // nothing listens there any more: refused
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => silent.close(r));
});

describe('sandbox control commands and the network', () => {
  it('--timeout ends a request to an address that never answers (exit 6)', async () => {
    for (const verb of [['outbox'], ['requests'], ['clock']]) {
      const r = await runAssess(['sandbox', ...verb, '--url', silentUrl, '--timeout', '1']);
      expect(r.code, r.stderr).toBe(6);
      expect(r.stderr).toContain(`error: no answer from ${silentUrl} in 1 s`);
      expect(r.stderr).toMatch(/--timeout/);
    }
  });

  it('a refused connection is a network failure (exit 6) naming the address and what to start', async () => {
    const r = await runAssess(['sandbox', 'reset', '--yes', '--url', closedUrl]);
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toContain(`error: no sandbox answering at ${closedUrl} (ECONNREFUSED)`);
    expect(r.stderr).toMatch(/sandbox serve/);
  });
});
