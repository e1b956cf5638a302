// The sandbox used as a library, in a process of its own that never loads the CLI (as tests and
// test/helpers/state-child.ts use it): its answers still carry zod's English
// messages, which zod/mini does not load by itself (src/util/zod-settings.ts sets them).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

let dir: string;
beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'assess-zod-messages-'))));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** `test/helpers/state-child.ts` on a state file: its first line on stdout, or how it ended. */
function runChild(stateFile: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/helpers/state-child.ts'), stateFile], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (b) => (stderr += String(b)));
  const listening = new Promise<{ baseUrl: string; key: string } | { code: number | null; stderr: string }>(
    (resolve) => {
      child.once('exit', (code) => resolve({ code, stderr }));
      child.stdout.once('data', (buf) => resolve(JSON.parse(String(buf))));
    },
  );
  return { child, listening };
}

describe("zod's English messages in the sandbox as a library", () => {
  it('a body of the wrong JSON type is answered with what was expected', async () => {
    const { child, listening } = runChild(join(dir, 'fresh.db'));
    try {
      const info = (await listening) as { baseUrl: string; key: string };
      expect(info.baseUrl).toBeDefined();
      const res = await fetch(`${info.baseUrl}/v3/tests/1001/invite`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': info.key },
        body: '[]',
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ errors: ['Invalid input: expected object, received array'] });
    } finally {
      // wait for its exit: on SIGTERM it writes its state into `dir`, which afterAll removes
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill();
        await exited;
      }
    }
  });
});
