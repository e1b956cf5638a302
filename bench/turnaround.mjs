// A bulk client's turnaround: how long after an answer leaves the server the client's next
// request arrives. A small server (the sandbox's hold timer, a fixed 201 answer
// after `latency` ms) records, for every request, the time since the oldest answer not yet
// followed by one; the same invites are sent by `assess invite --from-csv`, by
// bench/undici-floor.mjs (undici's Pool and nothing else) and by one `curl -Z --parallel-max 8`.
// Alternating runs; medians of the per-run figures. Build first: npm run build.
//   node bench/turnaround.mjs [rows=2000] [runs=3] [clients=assess,undici,curl] [latencyMs=20]
// The server is this file run with --serve under tsx (it imports src/sandbox/hold-timer.ts).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** A Markdown table row. */
const row = (cells) => `| ${cells.join(' | ')} |`;

const ROOT = resolve(import.meta.dirname, '..');

if (process.argv[2] === '--serve') await serve(Number(process.argv[3]));
else await main();

async function serve(latencyMs) {
  const { HoldTimer, monotonicMs } = await import(join(ROOT, 'src/sandbox/hold-timer.ts'));
  const timer = new HoldTimer();
  const gaps = [];
  const finished = [];
  const sockets = new Set();
  let id = 1_000_000;
  const server = createServer((req, res) => {
    const arrived = performance.now();
    if (req.url === '/_turnaround') {
      const g = gaps.splice(0).sort((a, b) => a - b);
      const q = (p) => g[Math.floor(p * (g.length - 1))] ?? 0;
      res.end(
        JSON.stringify({
          n: g.length,
          p10: q(0.1),
          p50: q(0.5),
          p90: q(0.9),
          p99: q(0.99),
          mean: g.reduce((a, b) => a + b, 0) / g.length,
          connections: sockets.size,
        }),
      );
      sockets.clear();
      finished.length = 0;
      return;
    }
    sockets.add(req.socket);
    if (finished.length) gaps.push(arrived - finished.shift());
    req.resume();
    req.on('end', () =>
      timer.at(monotonicMs() + latencyMs, () => {
        const n = id++;
        const body = JSON.stringify({ testInvitationId: n, testUrl: `https://x.example/t/${n}`, status: 'Pending' });
        res.writeHead(201, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(body),
        });
        res.end(body);
        res.on('finish', () => finished.push(performance.now()));
      }),
    );
  });
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: server.address().port })));
}

async function main() {
  const rows = Number(process.argv[2] ?? 2000);
  const runs = Number(process.argv[3] ?? 3);
  const clients = (process.argv[4] ?? 'assess,undici,curl').split(',');
  const latencyMs = Number(process.argv[5] ?? 20);
  const bin = process.env.ASSESS_BIN ?? join(ROOT, 'bin/assess.cjs');
  const work = mkdtempSync(join(tmpdir(), 'assess-bench-turnaround-'));
  const server = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--serve', String(latencyMs)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const { port } = await new Promise((ok) =>
    server.stdout.setEncoding('utf8').once('data', (line) => ok(JSON.parse(line))),
  );
  const base = `http://127.0.0.1:${port}`;
  const url = `${base}/v3/tests/1001/invite`;
  const body = (i, who) => JSON.stringify({ email: `${who}${i}@x.example`, name: `${who} ${i}`, sendEmail: 'no' });
  const results = Object.fromEntries(clients.map((c) => [c, []]));
  const load = [loadavg()[0]];
  try {
    for (let run = 0; run < runs; run++) {
      for (const who of clients) {
        const tag = `${who[0]}${run}x`;
        const started = performance.now();
        if (who === 'assess') {
          const csv = join(work, `${tag}.csv`);
          const lines = Array.from({ length: rows }, (_, i) => `${tag}${i}@x.example,${tag} ${i},no\n`);
          writeFileSync(csv, `email,name,sendEmail\n${lines.join('')}`);
          const env = {
            ...process.env,
            ASSESS_BASE_URL: base,
            ASSESS_API_KEY: 'sk_bench_0123456789abcdef',
            ASSESS_CONFIG_DIR: work,
            CI: 'true',
          };
          execFileSync(process.execPath, [bin, 'invite', '1001', '--from-csv', csv], { env, stdio: 'ignore' });
        } else if (who === 'undici') {
          const list = join(work, `${tag}.ndjson`);
          const headers = ['X-API-KEY: k', 'content-type: application/json'];
          writeFileSync(
            list,
            Array.from({ length: rows }, (_, i) =>
              JSON.stringify({ url, method: 'POST', headers, data: body(i, tag) }),
            ).join('\n'),
          );
          execFileSync(process.execPath, [join(ROOT, 'bench/undici-floor.mjs'), list], { stdio: 'ignore' });
        } else {
          const q = (s) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
          const block = (i) =>
            [
              `url = ${q(url)}`,
              'request = POST',
              'header = "X-API-KEY: k"',
              'header = "content-type: application/json"',
              `data = ${q(body(i, tag))}`,
              'output = "/dev/null"',
            ].join('\n');
          const cfg = join(work, `${tag}.cfg`);
          writeFileSync(cfg, Array.from({ length: rows }, (_, i) => block(i)).join('\nnext\n'));
          execFileSync('curl', ['-sS', '-Z', '--parallel-max', '8', '-K', cfg], { stdio: 'ignore' });
        }
        const wall = (performance.now() - started) / 1000;
        const t = await (await fetch(`${base}/_turnaround`)).json();
        results[who].push({ wall, ...t });
        load.push(loadavg()[0]);
      }
    }
  } finally {
    server.kill();
    rmSync(work, { recursive: true, force: true });
  }
  const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  const bound = rows / ((8 * 1000) / latencyMs);
  console.log(
    `${new Date().toISOString()} · node ${process.version} · ${rows} invites · concurrency 8 · latency ` +
      `${latencyMs} ms · ${runs} runs each`,
  );
  console.log(`load average (1 min) during the run: ${Math.min(...load).toFixed(2)}–${Math.max(...load).toFixed(2)}\n`);
  console.log('| client | wall (s) | % of bound | turnaround p10 | p50 | p90 | p99 | mean (ms) | connections |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  const name = {
    assess: '`assess invite --from-csv`',
    undici: 'undici `Pool` alone (`bench/undici-floor.mjs`)',
    curl: '`curl -Z --parallel-max 8`',
  };
  for (const who of clients) {
    const m = (k) => median(results[who].map((r) => r[k]));
    console.log(
      row([
        name[who],
        m('wall').toFixed(2),
        `${((100 * bound) / m('wall')).toFixed(0)} %`,
        ...['p10', 'p50', 'p90', 'p99', 'mean'].map((k) => m(k).toFixed(2)),
        m('connections'),
      ]),
    );
  }
}
