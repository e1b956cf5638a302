// Answers read into memory have a cap (64 MiB by default; ASSESS_MAX_ANSWER_MIB or `config set
// max-answer-mib`). Over it: exit 1, one line, the request made once (no retry, no second
// download). Downloads (report PDFs, `assess api`) are streamed with their own cap, --max-size
// (50 MiB for a PDF; the answer cap for `assess api`): over it the partial file is removed.
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';
import { startServer } from '../helpers/http-server.js';

const MiB = 1024 * 1024;
/** A tests list of about `bytes` bytes. */
function bigList(bytes: number): string {
  const one = JSON.stringify({ testId: 1001, testName: 'x'.repeat(1000) });
  return `{"tests":[${Array.from({ length: Math.ceil(bytes / (one.length + 1)) }, () => one).join(',')}]}`;
}

let server: Awaited<ReturnType<typeof startServer>>;
const big = bigList(2 * MiB);
const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(3 * MiB, 0x20), Buffer.from('\n%%EOF\n')]);
beforeAll(async () => {
  server = await startServer((req, res) => {
    if (req.url === '/v3/reports/777/pdf') {
      // a PDF that never ends (until the client goes away)
      res.writeHead(200, { 'content-type': 'application/pdf' });
      const chunk = Buffer.alloc(256 * 1024, 0x20);
      res.write('%PDF-1.4\n');
      const more = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', more);
      };
      res.on('close', () => res.removeAllListeners('drain'));
      return more();
    }
    if (req.url.startsWith('/v3/reports/') && req.url.endsWith('/pdf')) {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(pdf.length) });
      return res.end(pdf);
    }
    if (req.url.includes('chunked')) {
      res.writeHead(200, { 'content-type': 'application/json' }); // no length: chunked
      for (let i = 0; i < big.length; i += 64 * 1024) res.write(big.slice(i, i + 64 * 1024));
      return res.end();
    }
    if (req.url.includes('/7070')) {
      // announces 65 MiB (over the default cap) and sends a start; the client must not wait for more
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(65 * MiB) });
      return res.write('{"tests":[');
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(big)) });
    res.end(big);
  });
});
afterAll(() => server.close());

const env = (extra: Record<string, string> = {}) => ({
  ASSESS_BASE_URL: server.url,
  ASSESS_API_KEY: 'sk_test_answer_cap_0123456789',
  ...extra,
});
const requestsTo = (part: string) => server.requests.filter((r) => r.url.includes(part)).length;

describe('the answer cap: one line, one request, no partial file', () => {
  it('an answer over ASSESS_MAX_ANSWER_MIB (content-length): exit 1, one line, asked once', async () => {
    const r = await runAssess(['tests', 'list', '--json'], { env: env({ ASSESS_MAX_ANSWER_MIB: '1' }) });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /^error: GET \S+\/v3\/tests\S*: the answer is larger than the 1 MiB cap \(2 MiB announced; nothing read\); raise it with ASSESS_MAX_ANSWER_MIB/,
    );
    expect(requestsTo('/v3/tests')).toBe(1);
  });

  it('assess api streams a chunked answer (no length) and stops at the cap: exit 1, asked once', async () => {
    const before = requestsTo('chunked');
    const r = await runAssess(['api', 'GET', '/v3/tests?chunked=1'], { env: env({ ASSESS_MAX_ANSWER_MIB: '1' }) });
    expect(r.code).toBe(1);
    expect(Buffer.byteLength(r.stdout)).toBeLessThanOrEqual(MiB); // streamed up to the cap, never past it
    expect(r.stderr).toMatch(
      /the answer is larger than the 1 MiB cap \(stopped reading there\); raise it with --max-size SIZE/,
    );
    expect(requestsTo('chunked') - before).toBe(1);
  });

  it('the default cap is 64 MiB: a 65 MiB answer is refused without reading it', async () => {
    const r = await runAssess(['tests', 'get', '7070'], { env: env() });
    expect(r.stderr).toMatch(/the answer is larger than the 64 MiB cap \(65 MiB announced; nothing read\)/);
    expect(r.code).toBe(1);
    expect(requestsTo('/7070')).toBe(1);
  });

  it("the profile's max-answer-mib sets it; within the cap the answer is read as before", async () => {
    const cfg = tempDir();
    try {
      expect((await runAssess(['config', 'set', 'max-answer-mib', '1'], { configDir: cfg.dir })).code).toBe(0);
      const refused = await runAssess(['tests', 'list', '--json'], { env: env(), configDir: cfg.dir });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/larger than the 1 MiB cap/);
      expect((await runAssess(['config', 'set', 'max-answer-mib', '4'], { configDir: cfg.dir })).code).toBe(0);
      const read = await runAssess(['tests', 'list', '--json', 'testId'], { env: env(), configDir: cfg.dir });
      expect(read.code).toBe(0);
      expect((JSON.parse(read.stdout) as unknown[]).length).toBeGreaterThan(1000);
    } finally {
      cfg.cleanup();
    }
  });

  it('a streamed PDF larger than the cap is saved whole', async () => {
    const dir = tempDir();
    try {
      const file = `${dir.dir}/r.pdf`;
      const r = await runAssess(['report', '900001', '--pdf', '-o', file], {
        env: env({ ASSESS_MAX_ANSWER_MIB: '1' }),
      });
      expect(r.stderr).toContain(`(${pdf.length} bytes)`);
      expect(r.code).toBe(0);
    } finally {
      dir.cleanup();
    }
  });

  it('report --pdf over --max-size: exit 1 naming the cap and the flag, no file and no temp file left', async () => {
    const dir = tempDir();
    try {
      const file = `${dir.dir}/r.pdf`;
      const r = await runAssess(['report', '900001', '--pdf', '-o', file, '--max-size', '2MiB'], { env: env() });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/larger than the 2 MiB cap \(3 MiB announced; nothing read\); raise it with --max-size/);
      expect(readdirSync(dir.dir)).toEqual([]);
    } finally {
      dir.cleanup();
    }
  });

  it('an endless PDF stops at the 50 MiB default, and its partial file is removed', async () => {
    const dir = tempDir();
    try {
      const r = await runAssess(['report', '777', '--pdf', '-o', `${dir.dir}/r.pdf`], { env: env() });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/larger than the 50 MiB cap/);
      expect(readdirSync(dir.dir)).toEqual([]);
      const api = await runAssess(['api', 'GET', '/v3/reports/777/pdf', '--max-size', '3MiB'], { env: env() });
      expect(api.code, api.stderr).toBe(1);
      expect(api.stderr).toMatch(/larger than the 3 MiB cap/);
    } finally {
      dir.cleanup();
    }
  });

  it('assess api streams a PDF as it comes, byte for byte (the fixture is ASCII)', async () => {
    const r = await runAssess(['api', 'GET', '/v3/reports/900001/pdf'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout === pdf.toString('latin1')).toBe(true);
  });

  it('--max-size takes 200MiB, 1G, 512k or MiB; anything else is exit 2 naming it', async () => {
    for (const bad of ['0', '1x', '-5', '100T', '1e3'])
      expect((await runAssess(['api', 'GET', '/v3/tests', '--max-size', bad], { env: env() })).stderr).toMatch(
        /^error: --max-size: must be a size from 1KiB to 64GiB/,
      );
    const r = await runAssess(['report', '900001', '--max-size', '5M'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--max-size.*needs --pdf/);
  });

  it('a bad ASSESS_MAX_ANSWER_MIB is exit 2 naming it', async () => {
    const r = await runAssess(['tests', 'list'], { env: env({ ASSESS_MAX_ANSWER_MIB: '64MB' }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: ASSESS_MAX_ANSWER_MIB: '64MB' is not a whole number of MiB/);
  });
});
