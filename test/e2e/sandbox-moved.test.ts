// A profile pointed at the URL `assess sandbox start` printed, after the sandbox was started again
// on another port: the refused connection says the sandbox moved, where it is now, and how to fix
// it (--sandbox, or `sandbox start --port N`), not the generic network advice.
import { afterAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';

const cfg = tempDir('assess-moved-');
const run = (args: string[], env: Record<string, string> = {}) => runAssess(args, { configDir: cfg.dir, env });
afterAll(async () => {
  await run(['sandbox', 'stop']);
  cfg.cleanup();
});

describe('a sandbox that moved', () => {
  it('names the new address and the fixes', async () => {
    const first = await run(['sandbox', 'start', '--json']);
    expect(first.code, first.stderr).toBe(0);
    const { baseUrl: old, keys } = JSON.parse(first.stdout) as { baseUrl: string; keys: string[] };
    expect((await run(['sandbox', 'stop'])).code).toBe(0);
    const second = await run([
      'sandbox',
      'start',
      '--port',
      String(await otherPort(Number(new URL(old).port))),
      '--json',
    ]);
    expect(second.code, second.stderr).toBe(0);
    const { baseUrl: now } = JSON.parse(second.stdout) as { baseUrl: string };
    expect(now).not.toBe(old);
    const r = await run(['tests', 'list'], { ASSESS_BASE_URL: old, ASSESS_API_KEY: keys[0]! });
    expect(r.code).toBe(6);
    const port = new URL(old).port;
    expect(r.stderr).toContain(`the sandbox moved: it runs at ${now} now, not ${old}`);
    expect(r.stderr).toContain(`use --sandbox`);
    expect(r.stderr).toContain(`assess sandbox start --port ${port}`);
  });
});

/** A free port of this machine that is not `not`. */
async function otherPort(not: number): Promise<number> {
  const { createServer } = await import('node:net');
  for (;;) {
    const s = createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const port = (s.address() as { port: number }).port;
    await new Promise((r) => s.close(r));
    if (port !== not) return port;
  }
}
