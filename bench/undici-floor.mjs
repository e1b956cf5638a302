// The floor for any Node client in bench/bulk.mjs: the same requests as the curl baseline, sent
// by undici's Pool (8 keep-alive connections) and nothing else — no validation, journal or
// results file. What assess adds over this is its own work; what this adds over the bound is
// Node's and undici's. Reads the request list (JSON, one object per line: url, method, headers,
// data, output) from the file named by its argument. Used by bench/bulk.mjs.
import { createWriteStream, readFileSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Pool } from 'undici';

const requests = readFileSync(process.argv[2], 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
const pools = new Map();
const poolOf = (origin) => pools.get(origin) ?? pools.set(origin, new Pool(origin, { connections: 8 })).get(origin);
let next = 0;
async function slot() {
  while (next < requests.length) {
    const r = requests[next++];
    const url = new URL(r.url);
    const headers = Object.fromEntries(
      r.headers.map((h) => [h.slice(0, h.indexOf(':')).trim(), h.slice(h.indexOf(':') + 1).trim()]),
    );
    const res = await poolOf(url.origin).request({
      path: url.pathname + url.search,
      method: r.method ?? 'GET',
      headers,
      body: r.data,
    });
    if (res.statusCode >= 400) throw new Error(`${r.url}: ${res.statusCode}`);
    if (r.output && r.output !== '/dev/null') await pipeline(res.body, createWriteStream(r.output));
    else await res.body.dump({ limit: Infinity });
  }
}
await Promise.all(Array.from({ length: 8 }, slot));
await Promise.all([...pools.values()].map((p) => p.close()));
