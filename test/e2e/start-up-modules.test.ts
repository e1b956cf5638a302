// What the built binary loads of Node for a command that sends nothing: its stderr is a pipe
// here (as in a script that captures it), and Node's own process.stderr would load node:net
// there (src/cli/real-process.ts). A preload records Node's list of loaded modules at exit.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';

const t = tempDir('assess-modules-');
afterAll(() => t.cleanup());
const preload = join(t.dir, 'record-modules.cjs');
writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(process.env.MODULES_OUT, JSON.stringify(process.moduleLoadList)));\n`);

async function loaded(args: string[], env: Record<string, string> = {}) {
  const out = join(t.dir, `${args.join('-')}.json`);
  const r = await runAssess(args, { env: { NODE_OPTIONS: `--require ${preload}`, MODULES_OUT: out, ...env } });
  return { ...r, modules: JSON.parse(readFileSync(out, 'utf8')) as string[] };
}

describe('modules loaded by commands that send nothing, stderr on a pipe', () => {
  it('a usage error is written whole without node:net', async () => {
    const r = await loaded(['tests', 'get', 'abc']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: .*abc/);
    expect(r.modules).not.toContain('NativeModule net');
  });

  it('auth status without a key says so without node:net', async () => {
    const r = await loaded(['auth', 'status'], { ASSESS_API_KEY: '' });
    expect(r.code).not.toBe(0);
    expect(r.stderr).not.toBe('');
    expect(r.modules).not.toContain('NativeModule net');
  });

  it('(the check can fail: a command that writes its answer to a piped stdout loads node:net)', async () => {
    const r = await loaded(['config', 'list']);
    expect(r.code).toBe(0);
    expect(r.modules).toContain('NativeModule net');
  });
});
