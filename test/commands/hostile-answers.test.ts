// Only the service's answer counts. Every command family runs against a hostile stand-in for the
// service (test/helpers/hostile-service.ts): a captive portal's `200 text/html` is never a
// success (exit 1, the page named by its title, the base URL's source named), a compression bomb
// stops at the answer cap (exit 1), a body shorter or longer than its Content-Length is cut off
// (exit 6) — and the same commands through a proxy that compresses the real answers succeed.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { csvRun, journalItems } from '../helpers/bulk.js';
import { storeOf } from '../helpers/store.js';
import {
  hasZstd,
  PORTAL_TITLE,
  startHostileService,
  type HostileMode,
  type HostileService,
} from '../helpers/hostile-service.js';
import { runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
let h: HostileService;
let cfg: ReturnType<typeof tempDir>;
beforeAll(async () => {
  s = await startTestSandbox();
  h = await startHostileService({ upstream: s.sb.baseUrl });
  cfg = tempDir();
  // one try per request: a cut answer of a GET is sent again up to `retries` times, to the same end
  expect((await runInProcess(['config', 'set', 'retries', '1'], { configDir: cfg.dir })).code).toBe(0);
});
afterAll(async () => {
  await h?.close();
  await s?.close();
  cfg?.cleanup();
});

const env = () => ({ ...s.env, ASSESS_BASE_URL: h.url, ASSESS_BASE_URL_V2: h.url });
const run = (args: string[]) => runInProcess(args, { env: env(), configDir: cfg.dir });
let n = 0;
const email = () => `hostile.${++n}@example.com`;

/** A Pending invitation made on the sandbox itself (a cancel needs one each time). */
async function pending(): Promise<string> {
  const r = await s.service<{ testInvitationId: number }>('/v3/tests/1001/invite', {
    email: email(),
    name: 'Pending One',
  });
  return String(r.testInvitationId);
}

const FAMILIES: Array<{ name: string; args: () => Promise<string[]> | string[] }> = [
  { name: 'invite', args: () => ['invite', '1001', '--email', email(), '--name', 'Hostile Candidate', '--json'] },
  { name: 'attempts cancel', args: async () => ['attempts', 'cancel', await pending(), '--yes', '--json'] },
  { name: 'tests list --all', args: () => ['tests', 'list', '--all', '--json'] },
  { name: 'report', args: () => ['report', '900001', '--json'] },
  { name: 'links list', args: () => ['links', 'list', '1001', '--json'] },
  {
    name: 'links create',
    args: () => ['links', 'create', '1001', '--name', `Hostile ${++n}`, '--valid-days', '7', '--tz', '1', '--json'],
  },
  { name: 'settings get', args: () => ['settings', 'get', '1002', '--json'] },
  {
    name: 'settings set',
    args: () => ['settings', 'set', '1002', '--set', 'questionSettings.randomAnswers=0', '--yes'],
  },
  { name: 'callbacks process', args: () => ['callbacks', 'process', '900001', '--json'] },
];

async function against(mode: HostileMode, args: string[]) {
  h.mode = mode;
  try {
    return await run(args);
  } finally {
    h.mode = 'forward';
  }
}

describe('a captive portal (200 text/html to everything) is never a success', () => {
  for (const f of FAMILIES)
    it(`${f.name}: exit 1, the page named by its title and the base URL by its source, nothing on stdout`, async () => {
      const r = await against('portal', await f.args());
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`an HTML page ("${PORTAL_TITLE}")`);
      expect(r.stderr).toMatch(
        new RegExp(`the base URL ${h.url} \\(from ASSESS_BASE_URL\\) may not lead to the service`),
      );
      expect(r.stderr).not.toMatch(/<html|<form/i);
    });
});

describe('auth login against the portal', () => {
  it('is not a verified key: exit 1, the base URL named as given (--base-url), nothing saved', async () => {
    const own = tempDir();
    try {
      h.mode = 'portal';
      const r = await runInProcess(['auth', 'login', '--base-url', h.url, '--key-stdin'], {
        configDir: own.dir,
        stdin: `${s.env.ASSESS_API_KEY}\n`,
      });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/an HTML page .*\n.*\(from --base-url\)/);
      expect((await runInProcess(['config', 'get', 'api-key'], { configDir: own.dir })).stdout).not.toMatch(/\*{4}/);
    } finally {
      h.mode = 'forward';
      own.cleanup();
    }
  });
});

describe('compression bombs stop at the answer cap (decoded size)', () => {
  for (const mode of ['gzip-bomb', 'br-bomb'] as const)
    for (const f of FAMILIES.filter((x) => ['invite', 'tests list --all', 'report'].includes(x.name)))
      it(`${mode}, ${f.name}: exit 1 naming the 64 MiB cap`, async () => {
        const r = await against(mode, await f.args());
        expect(r.code, r.stderr).toBe(1);
        expect(r.stdout).toBe('');
        expect(r.stderr).toMatch(/the answer is larger than the 64 MiB cap \(stopped reading there\)/);
      });
});

describe('a body shorter or longer than its Content-Length is cut off (exit 6)', () => {
  for (const mode of ['short', 'long'] as const)
    for (const f of FAMILIES)
      it(`${mode}, ${f.name}`, async () => {
        const r = await against(mode, await f.args());
        expect(r.code, r.stderr).toBe(6);
        expect(r.stdout).toBe('');
        expect(r.stderr).toMatch(/the answer was cut off/);
      });
});

describe('the real answers through a proxy that compresses them are read as they are', () => {
  const modes: HostileMode[] = ['gzip', 'deflate', 'br', ...(hasZstd ? (['zstd'] as const) : [])];
  for (const mode of modes)
    for (const f of FAMILIES)
      it(`${mode}, ${f.name}: exit 0`, async () => {
        const r = await against(mode, await f.args());
        expect(r.code, r.stderr).toBe(0);
        if (f.name !== 'settings set') expect(() => JSON.parse(r.stdout)).not.toThrow();
      });

  it('tests list --all through gzip prints the same list as straight from the sandbox', async () => {
    const straight = await runInProcess(['tests', 'list', '--all', '--json'], { env: s.env, configDir: cfg.dir });
    const zipped = await against('gzip', ['tests', 'list', '--all', '--json']);
    expect(JSON.parse(zipped.stdout)).toEqual(JSON.parse(straight.stdout));
  });
});

describe('a bulk invite through the portal invites nobody, and a re-run invites everyone', () => {
  it('20 rows: the journal says failed for each, and the re-run through the real service invites all 20', async () => {
    const dir = tempDir();
    try {
      const csv = join(dir.dir, 'c.csv');
      const rows = Array.from({ length: 20 }, (_, i) => `bulk.portal.${i}@example.com,Bulk Portal ${i}`);
      writeFileSync(csv, `email,name\n${rows.join('\n')}\n`);
      const args = ['invite', '1001', '--from-csv', csv];
      const first = await against('portal', args);
      expect(first.code, first.stderr).not.toBe(0);
      const journal = journalItems(storeOf(cfg.dir), 'invite', csvRun(csv));
      expect(journal.map((i) => i.state)).toEqual(Array(20).fill('failed'));
      const results = readFileSync(join(dir.dir, 'c.csv.results.ndjson'), 'utf8').trim().split('\n');
      expect(results.map((l) => JSON.parse(l).outcome)).toEqual(Array(20).fill('failed'));

      const again = await run(args);
      expect(again.code, again.stderr).toBe(0);
      const after = readFileSync(join(dir.dir, 'c.csv.results.ndjson'), 'utf8').trim().split('\n');
      const outcomes = after.map((l) => JSON.parse(l) as { outcome: string; testUrl?: string });
      expect(outcomes.map((o) => o.outcome)).toEqual(Array(20).fill('invited'));
      expect(outcomes.every((o) => typeof o.testUrl === 'string' && o.testUrl.length > 0)).toBe(true);
    } finally {
      dir.cleanup();
    }
  });
});
