// The API key never leaves the config file: every command of the tool, with --debug, against a
// sandbox — the key from the environment, from --api-key-file and from --key-stdin — and the key
// (or any more of it than the masked last four characters) appears in no stdout, stderr, results
// file, journal, summary, report or PDF written. `auth login` writes it to a 0600 file in a 0700
// directory; a key typed on the command line is refused with advice and not echoed.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir, type RunResult } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnAssess } from '../helpers/spawn.js';

let s: TestSandbox;
let KEY: string;
let work: { dir: string; cleanup: () => void };
const out = (...p: string[]) => join(work.dir, 'out', ...p);

beforeAll(async () => {
  s = await startTestSandbox();
  KEY = s.env.ASSESS_API_KEY!;
  work = tempDir('assess-secrets-');
  mkdirSync(out(), { recursive: true });
});
afterAll(async () => {
  await s?.close();
  work?.cleanup();
});

/** The key, or all of it but the last four characters (what a masked key may show). */
function leaks(text: string | Buffer): boolean {
  const t = Buffer.isBuffer(text) ? text.toString('latin1') : text;
  return t.includes(KEY) || t.includes(KEY.slice(0, -4));
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return []; // the config dir is made only when something is written there
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

interface Run {
  args: string[];
  code?: number;
  stdin?: string;
}

async function runAll(
  runs: Run[],
  opts: { env?: Record<string, string | undefined>; configDir?: string },
): Promise<void> {
  for (const run of runs) {
    // scanned too: a key from the environment is never stored
    const configDir = opts.configDir ?? join(work.dir, 'config');
    const r: RunResult = await runAssess(['--debug', ...run.args], {
      env: opts.env ?? s.env,
      cwd: out(),
      configDir,
      stdin: run.stdin,
    });
    const what = `assess --debug ${run.args.join(' ')}\nstderr: ${r.stderr.slice(0, 1500)}`;
    expect(r.code, what).toBe(run.code ?? 0);
    expect(leaks(r.stdout), `key in stdout of ${what}`).toBe(false);
    expect(leaks(r.stderr), `key in stderr of ${what}`).toBe(false);
    // Commands that call the API really logged the exchange, so the checks above saw a header dump
    // (control-API, completion and config commands send no key and log nothing).
    if (!['sandbox', 'completion', 'config'].some((w) => run.args.includes(w)))
      expect(r.stderr, what).toMatch(/\[debug\] --> \w+ http/);
  }
}

describe('the API key in no output and no file (--debug on every command)', () => {
  it('key from ASSESS_API_KEY: every command, and every file under the output directories', async () => {
    writeFileSync(out('cohort.csv'), 'email,name\nsec.one@example.com,Sec One\nsec.two@example.com,Sec Two\n');
    // An invitation with a callback URL, started, so `callbacks process` has something to re-queue.
    const inv = await runAssess(
      [
        '--debug',
        'invite',
        '1001',
        '--email',
        'sec.single@example.com',
        '--name',
        'Sec Single',
        '--callback-url',
        'http://127.0.0.1:9/hook',
        '--json',
      ],
      { env: s.env, configDir: join(work.dir, 'config') },
    );
    expect(inv.code, inv.stderr).toBe(0);
    expect(leaks(inv.stdout + inv.stderr)).toBe(false);
    const id = String(JSON.parse(inv.stdout).testInvitationId);
    writeFileSync(out('ids.txt'), `${id}\n`);
    const runs: Run[] = [
      { args: ['sandbox', 'simulate', id, 'start'] },
      { args: ['auth', 'status'] },
      { args: ['config', 'list'] },
      { args: ['tests', 'list', '--all'] },
      { args: ['tests', 'get', '1001', '--json'] },
      { args: ['links', 'list', '1001'] },
      { args: ['links', 'get', '1001', '5001'] },
      { args: ['links', 'create', '1001', '--name', 'Secrets check', '--valid-days', '7', '--tz', '1'] },
      { args: ['links', 'update', '1001', '5002', '--name', 'Campus (renamed)'] },
      {
        args: [
          'invite',
          '1001',
          '--csv',
          'cohort.csv',
          '--results',
          'bulk/results.ndjson',
          '--journal',
          'bulk/journal.db',
        ],
      },
      { args: ['attempts', 'list', '--state', 'completed', '--from', '30d', '--to', 'now', '--json'] },
      { args: ['attempts', 'cancel', '900004', '--yes'] },
      { args: ['reattempt', '900002', '--start', 'now', '--end', '7d', '--tz', '1'] },
      { args: ['report', '900001', '--type', 'both'] },
      { args: ['report', '900001', '--pdf', '-o', out()] },
      { args: ['report', 'export', '--from', '30d', '--to', 'now', '--out', 'export', '--pdf', '--type', 'both'] },
      { args: ['callbacks', 'process', '--file', 'ids.txt'] },
      { args: ['settings', 'get', '1001'] },
      { args: ['settings', 'set', '1001', '--set', 'questionSettings.randomQuestions=1', '--dry-run'] },
      { args: ['api', 'GET', '/v3/tests'] },
      { args: ['api', 'POST', '/v3/callbacks/process', '--data', `{"testinvitationIds":[${id}]}`] },
      { args: ['--api', 'v2', 'tests', 'list'] },
      { args: ['sandbox', 'simulate', '900005', 'complete', '--score', '80'] },
      { args: ['sandbox', 'clock'] },
      { args: ['sandbox', 'requests', '--limit', '50', '--json'] },
      { args: ['sandbox', 'outbox'] },
      { args: ['sandbox', 'deliveries'] },
      { args: ['completion', 'bash'] },
    ];
    await runAll(runs, {});
    const written = filesUnder(out());
    // The runs above really wrote what is scanned: journal, results, summary, PDFs.
    expect(written.some((f) => f.endsWith('bulk/results.ndjson'))).toBe(true);
    expect(written.some((f) => f.endsWith('bulk/journal.db'))).toBe(true);
    expect(written.some((f) => /export\/.*summary|export\/.*\.csv$/.test(f))).toBe(true);
    expect(written.filter((f) => f.endsWith('.pdf')).length).toBeGreaterThanOrEqual(2);
    for (const f of [...written, ...filesUnder(join(work.dir, 'config'))])
      expect(leaks(readFileSync(f)), `key in ${f}`).toBe(false);
  });

  it('the embedded sandbox (--sandbox) and callbacks listen print no key either', async () => {
    const cfg = tempDir();
    try {
      // --sandbox uses the first seed key when no other is given: the same secret as KEY.
      const r = await runAssess(['--sandbox', '--debug', 'report', '900001'], { configDir: cfg.dir });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/X-API-KEY: \*\*\*\*/);
      expect(leaks(r.stdout + r.stderr)).toBe(false);
      for (const f of filesUnder(cfg.dir)) expect(leaks(readFileSync(f)), `key in ${f}`).toBe(false);
    } finally {
      cfg.cleanup();
    }
    const listen = spawnAssess(['--debug', 'callbacks', 'listen', '--port', '0', '--print-url'], { env: s.env });
    expect(await listen.firstLine()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hook$/);
    expect((await listen.stop()).code).toBe(0);
    expect(leaks(listen.lines().join('\n') + listen.stderr())).toBe(false);
  });

  it('key from --api-key-file and from --key-stdin (no ASSESS_API_KEY to catch it otherwise)', async () => {
    const keyFile = join(work.dir, 'key.txt');
    writeFileSync(keyFile, `${KEY}\n`, { mode: 0o600 });
    const env = { ...s.env, ASSESS_API_KEY: undefined };
    await runAll(
      [
        { args: ['--api-key-file', keyFile, 'tests', 'list'] },
        {
          args: ['--api-key-file', keyFile, 'invite', '1001', '--email', 'sec.file@example.com', '--name', 'Sec File'],
        },
        { args: ['--api-key-file', keyFile, 'report', '900001', '--pdf', '-o', out('file-key.pdf')] },
        { args: ['--key-stdin', 'tests', 'get', '1001'], stdin: KEY },
        { args: ['--key-stdin', 'auth', 'status'], stdin: `${KEY}\n` },
        { args: ['--key-stdin', 'api', 'GET', '/v3/tests/1001/settings'], stdin: KEY },
      ],
      { env },
    );
    expect(leaks(readFileSync(out('file-key.pdf')))).toBe(false);
  });
});

describe('stored key: auth login --key-stdin', () => {
  it('writes the key only to a 0600 config file in a 0700 directory; status and config show it masked', async () => {
    const base = tempDir();
    const configDir = join(base.dir, 'nested', 'assess'); // created by the tool, so its mode is the tool's choice
    try {
      const env = { ...s.env, ASSESS_API_KEY: undefined };
      const login = await runAssess(['--debug', 'auth', 'login', '--key-stdin', '--base-url', s.sb.baseUrl], {
        env,
        configDir,
        stdin: KEY,
      });
      expect(login.code, login.stderr).toBe(0);
      expect(login.stderr).toMatch(/Saved key \*{4}\w{4} to profile 'default'/);
      expect(leaks(login.stdout + login.stderr)).toBe(false);
      const file = join(configDir, 'config.json');
      expect(statSync(configDir).mode & 0o777).toBe(0o700);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readFileSync(file, 'utf8')).toContain(KEY); // it is stored — there and only there
      await runAll(
        [
          { args: ['auth', 'status'] },
          { args: ['config', 'get', 'api-key'] },
          { args: ['config', 'list', '--json'] },
          { args: ['tests', 'list'] },
        ],
        { env, configDir },
      );
      const others = filesUnder(base.dir).filter((f) => f !== file);
      for (const f of others) expect(leaks(readFileSync(f)), `key in ${f}`).toBe(false);
    } finally {
      base.cleanup();
    }
  });
});

describe('a key on the command line is refused with advice and not echoed', () => {
  const LITERAL = 'sk_live_TypedOnTheCommandLine_7Q2w';
  it.each([
    [['--api-key', LITERAL, 'tests', 'list']],
    [[`--api-key=${LITERAL}`, 'tests', 'list']],
    [['tests', 'list', '--key', LITERAL]],
    [['config', 'set', 'api-key', LITERAL]],
    [['auth', 'login', '--key', LITERAL]],
  ])('assess %j → exit 2', async (args) => {
    const before = (await s.requests()).length;
    const r = await runAssess(args, { env: s.env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/refusing (an API key|a key) on the command line/);
    expect(r.stderr).toMatch(/--key-stdin|auth login/);
    expect(r.stderr).not.toContain(LITERAL);
    expect(r.stderr).not.toContain(LITERAL.slice(0, -4));
    expect((await s.requests()).length).toBe(before);
  });
});
