// An older Node than the supported ones (engines.node) gets, for every command, exit 2 and two
// lines — the version found, the one needed, how to get it — never a stack trace from the bundle.
// The shim (bin/assess.cjs) is written so that any Node parses it; here the Node that runs it
// says it is another version (a preload redefines process.versions), and acorn checks the syntax.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'acorn';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, runAssess, tempDir } from '../helpers/cli.js';

const work = tempDir('assess-node-version-');
afterAll(() => work.cleanup());
const preload = join(work.dir, 'pretend.cjs');
writeFileSync(
  preload,
  "Object.defineProperty(process, 'versions', { value: { ...process.versions, node: process.env.PRETEND_NODE } });\n",
);
const pretend = (version: string, args: string[]) =>
  runAssess(args, { env: { PRETEND_NODE: version, NODE_OPTIONS: `--require ${preload}` } });

const engines = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines
  .node;

describe('the Node version', () => {
  it("package.json's engines is the floor the shim checks", () => {
    expect(engines).toBe('>=22.13');
    expect(readFileSync(BIN, 'utf8')).toMatch(/var NEEDED = \[22, 13\];/);
  });

  it('the shim is ES2015, so an old Node reads it to the end', () => {
    expect(() =>
      parse(readFileSync(BIN, 'utf8'), { ecmaVersion: 2015, sourceType: 'script', allowHashBang: true }),
    ).not.toThrow();
  });

  it.each([
    ['20.18.1', ['--version']],
    ['20.20.2', ['--help']],
    ['21.7.3', ['tests', 'list']],
    ['22.12.0', []],
    ['18.20.8', ['--sandbox', 'invite', '1001', '--email', 'a@example.com', '--name', 'A']],
  ])('Node %s, assess %j: exit 2, the two versions and where to get Node, no stack trace', async (version, args) => {
    const r = await pretend(version, args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(3);
    expect(lines[0]).toBe(`error: assess needs Node.js 22.13 or newer; this is Node.js ${version}`);
    expect(r.stderr).toMatch(/Node\.js 24 LTS \(https:\/\/nodejs\.org\)/);
    expect(r.stderr).toMatch(/standalone executable/);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });

  it.each(['22.13.0', '23.0.0', '26.0.0'])('Node %s runs the command', async (version) => {
    const r = await pretend(version, ['--version']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
