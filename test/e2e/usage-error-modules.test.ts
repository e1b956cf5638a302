// A usage error loads none of Node's heavier built-ins (docs/CONVENTIONS.md: node:crypto is
// imported where a file is written, a notification signed or a seed drawn, never by a command
// file; undici's network stack only for a request; commander's node:child_process, with net and
// dgram, on its first use: scripts/commander-child-process.mjs). The built binary runs with a
// preload that writes Node's list of loaded built-ins at exit.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, NODE, baseEnv, tempDir } from '../helpers/cli.js';

const { dir, cleanup } = tempDir();
afterAll(cleanup);
const preload = join(dir, 'loaded.cjs');
writeFileSync(
  preload,
  "process.on('exit', () => require('node:fs').writeFileSync(process.env.LOADED_TO, " +
    "process.moduleLoadList.join('\\n')));\n",
);

// one usage error per noun (the rows of bench/latency.mjs), each refused by its own flag or argument
const LINES = [
  ['tests', 'get', 'abc'],
  ['links', 'get', '1001', 'abc'],
  ['invite', '1001', '--email', 'nope'],
  ['report', 'abc'],
  ['attempts', 'list', '--state', 'nope'],
  ['settings', 'get', 'abc'],
  ['callbacks', 'listen', '--port', 'abc'],
  ['config', 'set', 'nope', 'x'],
  ['sandbox', 'serve', '--port', 'abc'],
  ['sandbox', 'serve', '--delivery-faults', 'drop=2'],
  ['reattempt', '900001', '--start', 'nope'],
  ['timezones', '--refresh', 'nope'],
];

function loadedBy(args: string[]): { code: number | null; stderr: string; loaded: string[] } {
  const out = join(dir, 'list.txt');
  const r = spawnSync(NODE, ['--require', preload, BIN, ...args], {
    env: { ...baseEnv(dir), LOADED_TO: out },
    encoding: 'utf8',
  });
  return { code: r.status, stderr: r.stderr, loaded: readFileSync(out, 'utf8').split('\n') };
}

describe('a usage error', () => {
  it.each(LINES)('%s %s … loads neither node:crypto, the network stack nor child_process', (...args: string[]) => {
    const { code, stderr, loaded } = loadedBy(args);
    expect(code, stderr).toBe(2);
    expect(stderr).toMatch(/^error: /);
    expect(
      loaded.filter((m) =>
        /^NativeModule (crypto|tls|http2?|https|internal\/crypto\/.*|child_process|net|dgram)$/.test(m),
      ),
    ).toEqual([]);
  });

  it('the preload does see what a command loads', () => {
    // a local command that writes a file through the atomic writer, which loads node:crypto
    const { code, loaded } = loadedBy(['config', 'set', 'timeout', '60']);
    expect(code).toBe(0);
    expect(loaded).toContain('NativeModule crypto');
  });
});
