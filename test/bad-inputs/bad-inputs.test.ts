// The bad-input corpus: every case must exit 2 with a message naming the problem, print nothing on
// stdout and no stack trace, write no file, and send no request. Requests are caught twice: the
// sandbox's request log must not grow, and every case talks to the sandbox through a recording
// proxy under its own path prefix (`/c17/v3/…`), which also sees control-API calls and tells
// exactly which case sent one.
// Cases run in-process (runCli with in-memory streams, one at a time in the case's working
// directory): the same program, parsing and error mapping as the binary, ~100× faster than a
// process per case. Every SPAWN_EVERY-th case also runs through the BUILT binary, so the real
// entry point (argv, exit code, stderr) is proven on a sample of every group.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { loadNouns } from '../../src/commands/index.js';
import { runAssess } from '../helpers/cli.js';
import { memoryProcess } from '../helpers/memory-io.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { callbackIdCases, idCases, invitationExampleCases } from './cases-ids.js';
import { csvFileCases, csvFlagCases, csvRowCases } from './cases-csv.js';
import { globalCases, toolCases } from './cases-global.js';
import { emailCases, inviteFlagCases, nameCases } from './cases-invite.js';
import { jsonFieldCases } from './cases-json-fields.js';
import { attemptCases, exportCases, linkCases, reportCases } from './cases-links-report.js';
import { callbackCases, settingsCases } from './cases-settings-callbacks.js';
import { everyCommandCases, notUtf8Cases, urlCases } from './cases-text.js';
import { timeCases, tzCases, windowCases, yearCases } from './cases-time.js';
import type { BadInput } from './types.js';

const GROUPS: Record<string, BadInput[]> = {
  ids: [...idCases, ...callbackIdCases, ...invitationExampleCases],
  times: [...timeCases, ...windowCases, ...tzCases, ...yearCases],
  invite: [...emailCases, ...nameCases, ...inviteFlagCases],
  'invite --csv': [...csvFileCases, ...csvRowCases, ...csvFlagCases],
  'links, attempts, report': [...linkCases, ...attemptCases, ...reportCases, ...exportCases],
  'settings, callbacks': [...settingsCases, ...callbackCases],
  'global, api, config, auth, sandbox': [...globalCases, ...toolCases],
  '--json fields': jsonFieldCases,
  URLs: urlCases,
  'not UTF-8': notUtf8Cases,
  'every other command': everyCommandCases,
};
const ALL = Object.values(GROUPS).flat();

/** Every n-th case also runs through the built binary. */
const SPAWN_EVERY = 8;

/** Runs in-process with the case's directory as the working directory (cases run one at a time). */
async function inProcess(args: string[], env: Record<string, string | undefined>, cwd: string, stdin: string | Buffer) {
  const p = memoryProcess({ ...env, CI: 'true', NO_COLOR: '1' }, { stdin });
  const back = process.cwd();
  process.chdir(cwd);
  try {
    const code = await runCli(args, p);
    return { code, stdout: p.out(), stderr: p.err() };
  } finally {
    process.chdir(back);
  }
}

let s: TestSandbox;
let proxy: Server;
let proxyUrl: string;
let logBefore: number;
const seen = new Map<number, string[]>(); // case number → requests it sent
let root: string;

/** Forwards `/c<N>/rest` to the sandbox as `/rest`, remembering that case N sent it. */
function startProxy(target: URL): Promise<Server> {
  const server = createServer((req, res) => {
    const m = /^\/c(\d+)(\/.*)?$/.exec(req.url ?? '');
    const n = m ? Number(m[1]) : -1;
    seen.set(n, [...(seen.get(n) ?? []), `${req.method} ${m?.[2] ?? req.url}`]);
    const out = request(
      { host: target.hostname, port: target.port, method: req.method, path: m?.[2] ?? '/', headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  s = await startTestSandbox();
  proxy = await startProxy(new URL(s.sb.baseUrl));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  logBefore = (await s.requests()).length;
  root = mkdtempSync(join(tmpdir(), 'assess-bad-'));
});
afterAll(async () => {
  await new Promise((r) => proxy?.close(r));
  await s?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

async function runCase(c: BadInput, n: number, spawned: boolean) {
  const caseDir = join(root, `c${n}`);
  const cwd = join(caseDir, 'cwd');
  mkdirSync(cwd, { recursive: true });
  for (const [path, content] of Object.entries(c.files ?? {})) {
    mkdirSync(dirname(join(cwd, path)), { recursive: true });
    writeFileSync(join(cwd, path), content);
  }
  const base = `${proxyUrl}/c${n}`;
  const env = { ASSESS_BASE_URL: base, ASSESS_BASE_URL_V2: base, ASSESS_API_KEY: s.env.ASSESS_API_KEY, ...c.env };
  const r = spawned
    ? await runAssess(c.args, { env, cwd, configDir: join(caseDir, 'config'), stdin: c.stdin ?? '' })
    : await inProcess(c.args, { ...env, ASSESS_CONFIG_DIR: join(caseDir, 'config') }, cwd, c.stdin ?? '');
  return { ...r, files: listFiles(cwd) };
}

describe.each(Object.entries(GROUPS))('bad input: %s', (_group, cases) => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const n = ALL.indexOf(c);
    const r = await runCase(c, n, false);
    check(c, n, r);
    // the binary's run gets its own directory and proxy prefix (an argument with a NUL cannot be spawned)
    if (n % SPAWN_EVERY === 0 && !c.args.some((a) => a.includes('\0')))
      check(c, n + ALL.length, await runCase(c, n + ALL.length, true), 'built binary');
  });
});

function check(
  c: BadInput,
  n: number,
  r: { code: number | null; stdout: string; stderr: string; files: string[] },
  how = 'in-process',
) {
  const where =
    `assess ${c.args.map((a) => (a.length > 60 ? `${a.slice(0, 20)}…` : a)).join(' ')} (${how})\nstderr: ` +
    `${r.stderr.slice(0, 2000)}`;
  expect(r.code, where).toBe(2);
  expect(r.stderr, where).toMatch(c.expect);
  expect(r.stdout, where).toBe('');
  expect(r.stderr, `stack trace in: ${where}`).not.toMatch(/^\s+at\s/m);
  expect(r.stderr, `source location in: ${where}`).not.toMatch(/\.(ts|js|mjs):\d+/);
  expect(r.stderr.length, `message too long (${r.stderr.length} characters): ${where.slice(0, 300)}`).toBeLessThan(
    4000,
  );
  // the error and its fix: two lines at most (a note before it, such as an old spelling's, is not the error)
  const lines = r.stderr.trimEnd().split('\n');
  const error = lines.filter(
    (l, i) => !(l.startsWith('note: ') && lines.slice(i).some((e) => e.startsWith('error: '))),
  );
  if (!c.help) expect(error.length, `more than two lines: ${where}`).toBeLessThanOrEqual(2);
  expect(seen.get(n) ?? [], `requests sent by: ${where}`).toEqual([]);
  expect(r.files, `files written by: ${where}`).toEqual(Object.keys(c.files ?? {}).sort());
}

describe('bad input: the corpus as a whole', () => {
  it('has at least 300 cases with unique names, and no request reached the sandbox', async () => {
    expect(ALL.length).toBeGreaterThanOrEqual(300);
    const names = Object.entries(GROUPS).flatMap(([group, cases]) => cases.map((c) => `${group}: ${c.name}`));
    expect(new Set(names).size).toBe(ALL.length);
    expect(seen.get(-1) ?? [], 'requests outside any case prefix').toEqual([]);
    const log = await s.requests();
    expect(log.slice(logBefore), 'the sandbox request log grew').toEqual([]);
  });

  it('reaches every command: each verb (and each noun that is a command) has a case', async () => {
    const commands = (await loadNouns()).flatMap((n) => [
      ...(n.self || !n.verbs.length ? [[n.name]] : []),
      ...n.verbs.map((v) => [n.name, v.name]),
    ]);
    // the noun on the line, then the verb among the words after it
    const reaches = (c: BadInput, [noun, verb]: string[]) => {
      const at = c.args.indexOf(noun!);
      return at >= 0 && (verb === undefined || c.args.slice(at + 1).includes(verb));
    };
    const missing = commands.filter((path) => !ALL.some((c) => reaches(c, path))).map((p) => p.join(' '));
    expect(missing).toEqual([]);
  });
});
