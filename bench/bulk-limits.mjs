// `node bench/bulk.mjs limits [limits=10,25,100] [seconds=40]`: bulk invite under the sandbox's rate
// limit (see bench/bulk.mjs). Per limit a fresh sandbox; each client invites its own rows.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** A Markdown table row. */
const row = (cells) => `| ${cells.join(' | ')} |`;

const ROOT = resolve(import.meta.dirname, '..');
const BIN = process.env.ASSESS_BIN ?? join(ROOT, 'bin/assess.cjs');
const BASELINE = process.env.BASELINE_BIN;
const limits = (process.argv[3] ?? '10,25,100').split(',').map(Number);
const seconds = Number(process.argv[4] ?? 40);
const LATENCY = '20ms';
const work = mkdtempSync(join(tmpdir(), 'assess-bench-limits-'));

function serve(limit) {
  return new Promise((resolveStart, reject) => {
    const args = [BIN, 'sandbox', 'serve', '--port', '0', '--json', '--latency', LATENCY, '--rate-limit', `${limit}/s`];
    const child = spawn(process.execPath, args, {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, ASSESS_CONFIG_DIR: work },
    });
    child.stdout.setEncoding('utf8').once('data', (line) => resolveStart({ child, ...JSON.parse(line) }));
    child.once('error', reject);
  });
}
const control = async (sb, method, path, body) =>
  (
    await fetch(`${sb.baseUrl}/_sandbox${path}`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body && JSON.stringify(body),
    })
  ).json();

function timed(file, args, env) {
  const started = process.hrtime.bigint();
  try {
    execFileSync(file, args, { env: { ...process.env, ...env }, stdio: 'ignore' });
  } catch {
    // exit 5 (rows failed) is a result here: the table counts them
  }
  return Number(process.hrtime.bigint() - started) / 1e9;
}

async function measure(sb, limit, name, rows, send) {
  await control(sb, 'POST', '/rate-limit', { spec: `${limit}/s` }); // full bucket, counters from zero
  const secs = send();
  const c = await control(sb, 'GET', '/rate-limit');
  const invs = (await control(sb, 'GET', '/invitations')).invitations.filter((i) => i.email.endsWith(`@${name}.bench`));
  const emails = new Set(invs.map((i) => i.email));
  return {
    name,
    rows,
    secs,
    admitted: c.admitted,
    refused: c.refused,
    invited: emails.size,
    twice: invs.length - emails.size,
  };
}

const table = [];
const load = [loadavg()[0]];
for (const limit of limits) {
  const rows = limit * seconds;
  const sb = await serve(limit);
  const env = { ASSESS_BASE_URL: sb.baseUrl, ASSESS_API_KEY: sb.keys[0], ASSESS_CONFIG_DIR: work, CI: 'true' };
  const csv = (tag) => {
    const path = join(work, `${tag}.csv`);
    writeFileSync(
      path,
      `email,name\n${Array.from({ length: rows }, (_, i) => `${i}@${tag}.bench,Bench ${i}`).join('\n')}\n`,
    );
    return path;
  };
  try {
    const clients = [
      ['assess', (tag) => timed(process.execPath, [BIN, 'invite', '1001', '--from-csv', csv(tag)], env)],
      ...(BASELINE
        ? [['fixed', (tag) => timed(process.execPath, [BASELINE, 'invite', '1001', '--csv', csv(tag)], env)]]
        : []),
      [
        'curl',
        (tag) => {
          const cfg = join(work, `${tag}.cfg`);
          const blocks = Array.from({ length: rows }, (_, i) =>
            [
              `url = "${sb.baseUrl}/v3/tests/1001/invite"`,
              `header = "X-API-KEY: ${sb.keys[0]}"`,
              'header = "content-type: application/json"',
              `data = "{\\"email\\":\\"${i}@${tag}.bench\\",\\"name\\":\\"Bench ${i}\\",\\"sendEmail\\":\\"no\\"}"`,
              'output = "/dev/null"',
              'retry = 30', // per transfer: options in a config file end at `next`
              'retry-delay = 1',
            ].join('\n'),
          );
          writeFileSync(cfg, blocks.join('\nnext\n'));
          return timed('curl', ['-sS', '-Z', '--parallel-max', '8', '-K', cfg], env);
        },
      ],
    ];
    for (const [client, send] of clients) {
      const tag = `${client}${limit}`;
      table.push({ limit, client, ...(await measure(sb, limit, tag, rows, () => send(tag))) });
      load.push(loadavg()[0]);
    }
  } finally {
    sb.child.kill('SIGTERM');
  }
}
rmSync(work, { recursive: true, force: true });

console.log(
  `${new Date().toISOString()} · node ${process.version} · latency ${LATENCY} · concurrency 8 · ` +
    `${seconds} s of rows per limit`,
);
console.log(`load average (1 min) during the run: ${Math.min(...load).toFixed(2)}–${Math.max(...load).toFixed(2)}\n`);
console.log(
  '| limit | client | rows | time (s) | goodput (% of limit) | requests | 429s | 429 share | invited once | missing ' +
    '| twice |',
);
console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of table) {
  const requests = r.admitted + r.refused;
  console.log(
    row([
      `${r.limit}/s`,
      r.client,
      r.rows,
      r.secs.toFixed(1),
      `${((100 * r.invited) / r.secs / r.limit).toFixed(1)} %`,
      requests,
      r.refused,
      `${((100 * r.refused) / requests).toFixed(2)} %`,
      r.invited,
      r.rows - r.invited,
      r.twice,
    ]),
  );
}
