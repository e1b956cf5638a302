// The binary's basic promises: help, version, usage errors, missing key, and `assess api`
// against a throwaway loopback server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, runAssess, tempDir } from '../helpers/cli.js';
import { json, startServer } from '../helpers/http-server.js';
import { helpPagesOfBuild } from '../helpers/help-pages.js';

const KEY = 'sk_e2e_foundation_9f8e7d6c5b4a';

describe('assess (binary)', () => {
  it('--version prints the version from package.json', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const args of [['--version'], ['-V'], ['--no-color', '--version']]) {
      const r = await runAssess(args);
      expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code: 0, stdout: `${version}\n` });
    }
  });

  it('--help lists the nouns and examples, exit 0', async () => {
    const r = await runAssess(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('auth');
    expect(r.stdout).toContain('config');
    expect(r.stdout).toContain('Examples:');
    expect(r.stderr).toBe('');
  });

  it('the list of commands shows what each accepts: invite [options] <testId>, and a CSV as a second word is refused with the flag to use', async () => {
    for (const args of [['--help'], ['help']]) {
      const r = await runAssess(args);
      expect(r.code).toBe(0);
      expect(r.stdout, args[0]).toMatch(/^ {2}invite \[options\] <testId> {2,}Invite a candidate/m);
      expect(r.stdout, args[0]).not.toContain('csvFile');
    }
    const r = await runAssess(['invite', '1001', 'd.csv']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "error: unexpected argument 'd.csv'\n  to invite everyone in a CSV file: assess invite 1001 --from-csv d.csv\n",
    );
  });

  it('every command has a description and an example in --help', async () => {
    const r = await runAssess(['config', 'set', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Change one setting/);
    expect(r.stdout).toMatch(/\$ assess config set/);
  });

  it('every help page (all commands and groups) has a description and an example', async () => {
    const pages = await helpPagesOfBuild();
    expect(Object.keys(pages).length).toBeGreaterThan(30);
    for (const [path, text] of Object.entries(pages)) {
      expect(text, path).toMatch(/Examples:\n {2}\$ \S/);
      expect(text.split('\n')[2]?.trim(), `${path}: description`).toBeTruthy();
    }
  });

  it('an unknown command exits 2 with a suggestion', async () => {
    const r = await runAssess(['confg', 'list']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command 'confg'/);
    expect(r.stderr).toMatch(/Did you mean config\?/);
    expect(r.stdout).toBe('');
  });

  it('help for an unknown command is that error too (exit 2), not the help of its parent', async () => {
    for (const args of [
      ['help', 'raport'],
      ['raport', '--help'],
      ['--profile', 'x', 'raport', '-h'],
      ['--profile', 'x', 'help', 'raport'],
    ]) {
      const r = await runAssess(args);
      expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(r.stderr).toBe(
        "error: unknown command 'raport' (Did you mean report?)\n  run 'assess --help' to see the commands\n",
      );
    }
    for (const args of [
      ['help', 'tests', 'lst'],
      ['tests', 'lst', '-h'],
      ['tests', '--profile', 'x', 'lst', '--help'],
      ['--json', 'name', 'help', 'tests', 'lst'],
    ]) {
      const r = await runAssess(args);
      expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(r.stderr, args.join(' ')).toMatch(/^error: unknown command 'lst' \(Did you mean list\?\)\n/);
    }
    // a word where a command takes arguments is one of them: that command's help
    const report = await runAssess(['help', 'report', '900001']);
    expect(report.code).toBe(0);
    expect(report.stdout).toMatch(/^Usage: assess report /);
    // `help` behind global options is the same `help`
    const behind = await runAssess(['--profile', 'x', 'help', 'tests', 'list']);
    expect(behind.code).toBe(0);
    expect(behind.stdout).toMatch(/^Usage: assess tests list /);
  });

  it('an unknown flag exits 2', async () => {
    const r = await runAssess(['config', 'list', '--colour']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown option '--colour'/);
  });

  it('a key on the command line is refused with advice', async () => {
    const r = await runAssess(['auth', 'status', '--api-key', KEY]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--key-stdin/);
    expect(r.stderr).not.toContain(KEY);
  });

  it('a missing key exits 3 and prints nothing on stdout', async () => {
    const r = await runAssess(['auth', 'status'], { env: { ASSESS_BASE_URL: 'http://127.0.0.1:9' } });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/no API key/);
    expect(r.stderr).toMatch(/auth login/);
  });

  it('config set validates values and config get reads them back', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const bad = await runAssess(['config', 'set', 'timeout', 'soon'], { configDir: dir });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/timeout: must be seconds between 1 and 3600, e.g. 30/);
      expect((await runAssess(['config', 'set', 'timeout', '45'], { configDir: dir })).code).toBe(0);
      const got = await runAssess(['config', 'get', 'timeout'], { configDir: dir });
      expect(got.stdout).toBe('45\n');
      const unknown = await runAssess(['config', 'set', 'colour', 'red'], { configDir: dir });
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toMatch(/base-url/);
    } finally {
      cleanup();
    }
  });

  it('a corrupt config file is reported with its path, not overwritten', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const { writeFileSync, readFileSync } = await import('node:fs');
      writeFileSync(`${dir}/config.json`, '{"profiles": ');
      const r = await runAssess(['config', 'set', 'timeout', '5'], { configDir: dir });
      expect(r.code).toBe(2); // a local file that cannot be read (docs/scripting.md)
      expect(r.stderr).toContain(`${dir}/config.json`);
      expect(r.stderr).toMatch(/\.bak/);
      expect(r.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
      expect(readFileSync(`${dir}/config.json`, 'utf8')).toBe('{"profiles": ');
    } finally {
      cleanup();
    }
  });
});

describe('assess auth and api against a throwaway server', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer((req, res) => {
      if (req.headers['x-api-key'] !== KEY) return json(res, 400, { errors: ['Invalid API key'] });
      if (req.url.startsWith('/v3/tests') && req.method === 'GET')
        return json(res, 200, { tests: [{ testId: 1, testName: 'Java' }] });
      if (req.url === '/v3/echo') return json(res, 200, { got: JSON.parse(req.body || 'null') });
      if (req.url === '/v3/missing') return json(res, 404, { errors: ['no such thing'] });
      if (req.url === '/v2/org/tests')
        return json(res, 200, { statuscode: '200.1', description: 'ok', result: { tests: [] } });
      return json(res, 400, { errors: ['unexpected'] });
    });
  });
  afterAll(() => server.close());
  const env = () => ({ ASSESS_BASE_URL: server.url, ASSESS_BASE_URL_V2: server.url, ASSESS_API_KEY: KEY });

  it('auth status reports the environment as the key source', async () => {
    const r = await runAssess(['auth', 'status', '--json'], { env: env() });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ keySource: 'env', valid: true, baseUrl: server.url });
    expect(r.stdout).not.toContain(KEY);
  });

  it('auth status exits 3 when the key is refused', async () => {
    const r = await runAssess(['auth', 'status'], { env: { ...env(), ASSESS_API_KEY: 'sk_wrong_key_123456' } });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^valid\tno$/m); // the status still printed, for scripts
  });

  it('auth login --key-stdin stores the key (masked in output) and status then uses the profile', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const login = await runAssess(['auth', 'login', '--key-stdin', '--base-url', server.url], {
        configDir: dir,
        stdin: `${KEY}\n`,
      });
      expect(login.code).toBe(0);
      expect(login.stderr).toMatch(/\*\*\*\*/);
      expect(login.stderr + login.stdout).not.toContain(KEY);
      const status = await runAssess(['auth', 'status', '--json'], { configDir: dir });
      expect(JSON.parse(status.stdout)).toMatchObject({ keySource: 'profile', valid: true });
      const listed = await runAssess(['config', 'list', '--json'], { configDir: dir });
      expect(listed.stdout).not.toContain(KEY);
      expect(JSON.parse(listed.stdout).find((r: { key: string }) => r.key === 'api-key').value).toMatch(/^\*\*\*\*/);
      expect((await runAssess(['auth', 'logout'], { configDir: dir })).code).toBe(0);
      expect((await runAssess(['auth', 'status'], { configDir: dir })).code).toBe(3);
    } finally {
      cleanup();
    }
  });

  it('auth login without a terminal or key source is a usage error', async () => {
    const r = await runAssess(['auth', 'login', '--base-url', server.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--key-stdin/);
  });

  it('api GET prints the raw body when piped', async () => {
    const r = await runAssess(['api', 'GET', '/v3/tests'], { env: env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ tests: [{ testId: 1, testName: 'Java' }] });
  });

  it('api POST sends --data (inline, @file, stdin)', async () => {
    const inline = await runAssess(['api', 'post', '/v3/echo', '--data', '{"a":1}'], { env: env() });
    expect(JSON.parse(inline.stdout)).toEqual({ got: { a: 1 } });
    const piped = await runAssess(['api', 'POST', '/v3/echo', '--data', '-'], { env: env(), stdin: '{"b":2}' });
    expect(JSON.parse(piped.stdout)).toEqual({ got: { b: 2 } });
    const { dir, cleanup } = tempDir();
    try {
      const { writeFileSync } = await import('node:fs');
      writeFileSync(`${dir}/body.json`, '{"c":3}');
      const file = await runAssess(['api', 'POST', '/v3/echo', '--data', `@${dir}/body.json`], { env: env() });
      expect(JSON.parse(file.stdout)).toEqual({ got: { c: 3 } });
    } finally {
      cleanup();
    }
  });

  it('api maps a non-2xx answer to its exit code and still prints the body', async () => {
    const r = await runAssess(['api', 'GET', '/v3/missing'], { env: env() });
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout)).toEqual({ errors: ['no such thing'] });
    expect(r.stderr).toMatch(/HTTP 404/);
  });

  it('api --v2 uses the v2 base URL and header', async () => {
    const before = server.requests.length;
    const r = await runAssess(['api', 'GET', '/v2/org/tests', '--v2'], { env: env() });
    expect(r.code).toBe(0);
    expect(server.requests[before]!.headers['x-api-key']).toBe(KEY);
  });

  it('api rejects bad input before sending anything', async () => {
    const before = server.requests.length;
    const bad = [
      ['api', 'FETCH', '/v3/tests'],
      ['api', 'GET', 'v3/tests'],
      ['api', 'POST', '/v3/echo', '--data', '{nope'],
      ['api', 'POST', '/v3/echo', '--data', '@/does/not/exist.json'],
    ];
    for (const args of bad) {
      const r = await runAssess(args, { env: env() });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/--data|<method>|<path>/);
    }
    expect(server.requests.length).toBe(before);
  });

  it('--debug logs the exchange on stderr with the key redacted', async () => {
    const r = await runAssess(['api', 'GET', '/v3/tests', '--debug'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/--> GET/);
    expect(r.stderr).toMatch(/X-API-KEY: \*\*\*\*/);
    expect(r.stderr + r.stdout).not.toContain(KEY);
  });
});
