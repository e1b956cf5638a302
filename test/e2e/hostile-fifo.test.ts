// A CSV from a FIFO or `<(…)` is read once (spooled to a private temp file),
// so it neither hangs nor fails; the spool is removed on every way out, Ctrl-C twice included.
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, BIN, tempDir, NODE } from '../helpers/cli.js';
import { csvOf, csvRun, doneItems } from '../helpers/bulk.js';
import { storeOf } from '../helpers/store.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { ctrlCTwice, spawnAssess } from '../helpers/spawn.js';
import { gateProxy, INVITES } from '../helpers/gate-proxy.js';
import { waitFor } from '../helpers/wait.js';

let s: TestSandbox;
const work = tempDir('assess-fifo-');
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(async () => {
  await s?.close();
  work.cleanup();
});

let n = 0;
/** A directory with a FIFO in it and a private TMPDIR for the child (to see its spool files). */
function setup() {
  const dir = join(work.dir, `f${++n}`);
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp, { recursive: true });
  const fifo = join(dir, 'in.csv');
  execFileSync('mkfifo', [fifo]);
  return { dir, tmp, fifo };
}
const spools = (tmp: string) => readdirSync(tmp).filter((f) => f.startsWith('assess-csv-'));

describe('CSV from a FIFO or process substitution', () => {
  it('mkfifo: every row is invited once, nothing hangs, the spool is gone', async () => {
    const { dir, tmp, fifo } = setup();
    const run = spawnAssess(['invite', '1001', '--csv', fifo], {
      env: { ...s.env, TMPDIR: tmp },
      cwd: dir,
      configDir: join(dir, 'config'),
    });
    const w = await open(fifo, 'w'); // completes once the CLI opened the reading end
    await w.writeFile(
      csvOf([
        ['a@fifo.example', 'A'],
        ['b@fifo.example', 'B'],
        ['c@fifo.example', 'C'],
      ]),
    );
    await w.close();
    const r = await run.done;
    expect(r.stderr).toMatch(/: 3 invited in /);
    expect(r.code).toBe(0);
    expect(doneItems(storeOf(join(dir, 'config')), 'invite', csvRun(fifo))).toHaveLength(3);
    expect(spools(tmp)).toEqual([]);
  });

  it('<(…) in bash: works, its journal named by the current directory', async () => {
    const { dir, tmp } = setup();
    const cfg = tempDir();
    const script =
      `exec "${NODE}" "${BIN}" invite 1001 --csv <(printf ` + `'email,name\\nd@fifo.example,D\\ne@fifo.example,E\\n')`;
    const r = await new Promise<{ code: number | null; err: string }>((resolve) => {
      const child = spawn('bash', ['-c', script], {
        env: { ...baseEnv(cfg.dir), ...s.env, TMPDIR: tmp } as NodeJS.ProcessEnv,
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
      const t = setTimeout(() => child.kill('SIGKILL'), 300_000); // a hang, not a slow machine
      child.on('close', (code) => (clearTimeout(t), resolve({ code, err })));
    });
    const journal = doneItems(storeOf(cfg.dir), 'invite', `1001 - ${dir}`);
    cfg.cleanup();
    expect(r.err).toMatch(/: 2 invited in /);
    expect(r.code).toBe(0);
    expect(journal).toHaveLength(2);
    expect(spools(tmp)).toEqual([]);
  });

  it('Ctrl-C while nobody writes to the FIFO: exit 130, nothing left behind', async () => {
    const { dir, tmp, fifo } = setup();
    const run = spawnAssess(['invite', '1001', '--csv', fifo], { env: { ...s.env, TMPDIR: tmp }, cwd: dir });
    await waitFor(() => spools(tmp).length > 0, { what: 'the spool to be created' });
    const r = await run.stop('SIGINT');
    expect(r.code).toBe(130);
    expect(spools(tmp)).toEqual([]);
  });

  it('Ctrl-C twice while sending: exit 130 at once, the spool removed all the same', async () => {
    // every invitation's answer held (the invitation is made at once): a request stays in flight,
    // so the run cannot end by itself between the two presses however slow this machine is
    const gate = await gateProxy(s.sb.baseUrl, 0, INVITES);
    try {
      const { dir, tmp, fifo } = setup();
      const run = spawnAssess(['invite', '1001', '--csv', fifo, '--concurrency', '1'], {
        env: { ...s.env, ASSESS_BASE_URL: gate.url, TMPDIR: tmp },
        cwd: dir,
      });
      const w = await open(fifo, 'w');
      await w.writeFile(csvOf(Array.from({ length: 5 }, (_, i) => [`s${i}@fifo.example`, `S ${i}`])));
      await w.close();
      const sent = async () =>
        (await s.control<{ invitations: Array<{ email: string }> }>('GET', '/invitations')).invitations.some(
          (i) => i.email === 's0@fifo.example',
        );
      await waitFor(async () => (await sent()) || run.child.exitCode !== null, { what: 'the first invite to arrive' });
      expect(spools(tmp)).toHaveLength(1);
      const r = await ctrlCTwice(run);
      expect(r.code, run.stderr()).toBe(130);
      expect(run.stderr()).toMatch(/interrupted again: stopping now/);
      expect(spools(tmp)).toEqual([]);
    } finally {
      await gate.close();
    }
  });
});
