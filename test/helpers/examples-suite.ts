// The suite behind test/e2e/examples-*.test.ts. Every example in every --help page, and the
// README's "Using it" block, runs and exits 0 against
// a fresh sandbox, in order (later examples build on earlier ones: the invitation an invite made,
// the settings file a `settings get --json > settings.json` wrote). The built binary runs through
// bash with `assess` on PATH; examples naming the local sandbox (127.0.0.1:4010) get this test's
// sandbox instead, `--sandbox` ones share one embedded state. Examples that ask a question run in
// a pseudo-terminal (util-linux `script`) and are answered; servers run 2 s, then get Ctrl-C.
// The user's own app (http://localhost:3000 in the examples) is a receiver this test runs; the
// files the examples read (a CSV, ids, a key, a signing secret, stored requests) are made here.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Inbox, notificationId } from '../../src/commands/callbacks/shared/inbox.js';
import { generateSecret, signatureHeaders } from '../../src/commands/callbacks/shared/signing.js';
import { assessShim, ROOT } from './cli.js';
import { runInProcess } from './in-process.js';
import { startServer } from './http-server.js';
import { helpPagesOfBuild } from './help-pages.js';
import { startTestSandbox, type TestSandbox } from './sandbox.js';

function examplesOf(text: string): string[] {
  const after = text.split('\nExamples:\n')[1] ?? '';
  return after
    .split('\n')
    .filter((l) => l.startsWith('  $ '))
    .map((l) => l.slice(4).trim());
}

const pages = await helpPagesOfBuild();
const readmeBlock = /## Using it\n\n```sh\n([\s\S]*?)```/.exec(readFileSync(join(ROOT, 'README.md'), 'utf8'))![1]!;
const readme = readmeBlock.split('\n').filter((l) => l.trim());

/** The nouns whose help pages the first part runs; the second runs the rest and the README. */
const PART_ONE = new Set(['', 'auth', 'config', 'tests', 'links', 'invite', 'attempts', 'reattempt', 'report']);

/** Each distinct example once, in the order of the help pages (then the README's). */
const ORDER: Array<{ where: string; line: string; part: 1 | 2 }> = [];
const seenLines = new Set<string>();
for (const [page, text] of Object.entries(pages))
  for (const line of examplesOf(text))
    if (!seenLines.has(line))
      (seenLines.add(line),
        ORDER.push({
          where: `assess ${page} --help`.replace('  ', ' '),
          line,
          part: PART_ONE.has(page.split(' ')[0]!) ? 1 : 2,
        }));

/** Questions the examples ask on a terminal, and the answer typed. */
function answerFor(line: string, key: string): string | undefined {
  const cmd = line.replace(/\s+#.*$/, '');
  if (/^assess auth login\s*$/.test(cmd)) return `${key}\r`;
  if (/^assess attempts cancel \d+\s*$/.test(cmd)) return 'y\r';
  if (/^assess settings set /.test(cmd) && !/--yes|--dry-run/.test(cmd)) return 'y\r';
  return undefined;
}
/**
 * A server example: started, given Ctrl-C once it says where it listens (an `http://` line; a
 * fixed sleep made a slow start under load look like a failure), and its own exit status kept.
 * Job control on (`set -m`), so the background server does not start with SIGINT ignored.
 */
const serveThenInterrupt = (cmd: string) =>
  [
    'set -m',
    'out=$(mktemp)',
    `${cmd} > "$out" 2>&1 &`,
    'pid=$!',
    'for _ in $(seq 600); do grep -q "http://" "$out" && break; kill -0 $pid 2>/dev/null || break; sleep 0.1; done',
    'sleep 0.2; kill -INT $pid 2>/dev/null; wait $pid; code=$?',
    'cat "$out"; rm -f "$out"; exit $code',
  ].join('\n');
/**
 * The argv of an example that is a plain `assess …` command (words, quotes, a trailing comment),
 * or undefined when it needs a shell: pipes, redirects, substitutions, variables, `&&`.
 */
export function plainArgv(line: string): string[] | undefined {
  if (!/^assess\s/.test(line)) return undefined;
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return undefined;
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (ch === '"') {
      let j = i + 1;
      let text = '';
      for (; j < line.length && line[j] !== '"'; j++) {
        if ('$`'.includes(line[j]!)) return undefined;
        if (line[j] === '\\' && '"\\$`'.includes(line[j + 1] ?? '')) j++;
        text += line[j];
      }
      if (j >= line.length) return undefined;
      word = (word ?? '') + text;
      i = j;
    } else if (/\s/.test(ch)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (ch === '#' && word === undefined) break;
    else if ('|&;<>()$`\\*?[{~'.includes(ch)) return undefined;
    else word = (word ?? '') + ch;
  }
  if (word !== undefined) words.push(word);
  return words.slice(1);
}

const isServer = (line: string) => /^assess (sandbox serve|callbacks listen)\b/.test(line);

/**
 * Defines the suite for one part: the examples of its help pages in order, against a fresh
 * sandbox and config of its own (the two parts run in parallel, each as its own test file).
 */
export function examplesSuite(part: 1 | 2): void {
  let s: TestSandbox;
  /** Stands in for the user's own app (the examples' http://localhost:3000/webhooks/assess). */
  let app: Awaited<ReturnType<typeof startServer>>;
  let home: string;
  let work: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    s = await startTestSandbox();
    app = await startServer((_req, res) => res.writeHead(204).end());
    home = mkdtempSync(join(tmpdir(), 'assess-examples-'));
    work = join(home, 'work');
    const bin = join(home, 'bin');
    for (const d of [work, join(home, '.config/fish/completions')]) mkdirSync(d, { recursive: true });
    assessShim(bin);
    // the inputs the examples name
    writeFileSync(join(work, 'cohort.csv'), 'email,name\nann@example.com,Ann Lee\nbo@example.com,Bo Berg\n');
    writeFileSync(join(work, 'ids.txt'), '900001\n900002\n');
    writeFileSync(join(work, 'ids.json'), '{"testinvitationIds":[900001]}\n');
    writeFileSync(join(work, 'completed.tsv'), '900001\tAlice\n900002\tBob\n');
    writeFileSync(join(work, 'key.txt'), `${s.env.ASSESS_API_KEY}\n`, { mode: 0o600 });
    writeFileSync(join(work, 'listen.token'), 's3cret\n', { mode: 0o600 });
    // What an earlier `callbacks listen --sign` session leaves: a signing secret, the notifications
    // it stored in the profile's store (replay reads them), and captured requests to verify.
    const secret = generateSecret();
    writeFileSync(join(work, 'webhook.secret'), `${secret}\n`);
    const now = new Date();
    const captured = [
      [900001, 'Complete'],
      [900002, 'Test Left'],
    ].map(([id, status]) => {
      const body = JSON.stringify({
        CandidateEmailId: 'alice@example.com',
        TestInvitationId: id,
        Status: status,
        TotalScore: 130,
        CandidateScore: 107,
      });
      const headers = {
        'content-type': 'application/json',
        ...signatureHeaders(secret, notificationId(Buffer.from(body)), Buffer.from(body), now),
      };
      return { headers, body };
    });
    const inbox = Inbox.open(join(home, 'config', 'store', 'default.db'));
    for (const c of captured)
      await inbox.addNotification({
        raw: Buffer.from(c.body),
        headers: c.headers,
        at: now,
        forwardTo: `${app.url}/webhooks/assess`,
      });
    inbox.close();
    writeFileSync(join(work, 'received.ndjson'), captured.map((c) => JSON.stringify(c)).join('\n') + '\n');
    writeFileSync(join(work, 'request.json'), JSON.stringify(captured[0]));
    env = {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: home,
      ASSESS_CONFIG_DIR: join(home, 'config'),
      ASSESS_BASE_URL: s.env.ASSESS_BASE_URL!,
      ASSESS_BASE_URL_V2: s.env.ASSESS_BASE_URL_V2!,
      ASSESS_API_KEY: s.env.ASSESS_API_KEY!,
      ASSESS_KEY: s.env.ASSESS_API_KEY!,
      CI: 'true',
      NO_COLOR: '1',
      TERM: 'dumb',
    };
  });
  afterAll(async () => {
    await s?.close();
    await app?.close();
    // a shared sandbox an example started (`assess sandbox start`) and no later example stopped
    if (env?.ASSESS_CONFIG_DIR) await runInProcess(['sandbox', 'stop'], { env, configDir: env.ASSESS_CONFIG_DIR });
    if (home) rmSync(home, { recursive: true, force: true });
  });

  function sh(script: string, stdin = ''): Promise<{ code: number | null; out: string }> {
    return new Promise((resolve) => {
      const child = spawn('bash', ['-c', script], { cwd: work, env, stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('close', (code) => (clearTimeout(timer), resolve({ code, out })));
      child.stdin.on('error', () => undefined); // a script that exits before reading its input
      child.stdin.end(stdin);
    });
  }

  const PRELUDE = [
    'set -o pipefail',
    // the example's stand-in for "your system's export of candidates"
    "export-candidates() { printf 'email,name\\ncy@example.com,Cy Chan\\n'; }",
  ].join('\n');

  async function runExample(line: string, via: 'any' | 'binary' = 'any') {
    const local = s.sb.baseUrl;
    const cmd = line
      .replaceAll('http://127.0.0.1:4010', local)
      .replaceAll('http://localhost:3000', app.url)
      .replace(/--port (4010|8787)\b/, '--port 0')
      // a server example without --port would take the default (4010, 8787), which another
      // program on the machine may hold: every server here listens on a free port
      .replace(/^(assess (?:sandbox serve|callbacks listen))(?![^#]*--port)/, '$1 --port 0');
    const answer = answerFor(cmd, env.ASSESS_API_KEY!);
    if (answer !== undefined) {
      // a real pseudo-terminal: the prompt is shown and answered; CI=true would turn prompts off
      const inner = cmd.replace(/\s+#.*$/, '').replace(/'/g, `'\\''`);
      return sh(
        `${PRELUDE}\nsleep 0.5 | true; (sleep 1; printf '${answer.replace(/\r/g, '\\r')}') | CI= script -qec ` +
          `'${inner}' /dev/null`,
      );
    }
    if (isServer(cmd)) return sh(`${PRELUDE}\n${serveThenInterrupt(cmd.replace(/\s+#.*$/, ''))}`);
    // A plain `assess …` line runs in this process (the same program, client and sandbox, without
    // a node start per example); one that needs the shell (pipes, redirects, $(…)) runs in bash
    // with the built binary, as do the servers, the questions and the README's block.
    const argv = plainArgv(cmd);
    if (argv && via === 'any') {
      const r = await runInProcess(argv, { env, configDir: env.ASSESS_CONFIG_DIR, cwd: work });
      return { code: r.code, out: r.stdout + r.stderr };
    }
    return sh(`${PRELUDE}\n${cmd}`);
  }

  describe(`every --help example runs against a fresh sandbox (part ${part} of 2)`, () => {
    it('there are examples to run', () => expect(ORDER.length).toBeGreaterThan(100));
    it.each(ORDER.filter((e) => e.part === part).map((e) => [e.line, e] as const))('%s', async (_line, e) => {
      const r = await runExample(e.line);
      expect(r.code, `${e.where}: ${e.line}\n${r.out.slice(-2000)}`).toBe(0);
    });
  });

  if (part === 2)
    describe("README's Using it block, in order", () => {
      it.each(readme.map((l) => [l] as const))('%s', async (line) => {
        const r = await runExample(line, 'binary'); // the newcomer's path: the binary, every line
        expect(r.code, `${line}\n${r.out.slice(-2000)}`).toBe(0);
      });
    });

  if (part === 2)
    describe('help through the built binary', () => {
      it('assess help attempts list = assess attempts list --help', async () => {
        const a = await sh('assess help attempts list');
        const b = await sh('assess attempts list --help');
        expect(a.code).toBe(0);
        expect(a.out).toMatch(/^Usage: assess attempts list/);
        expect(a.out).toBe(b.out);
      });
    });
}
