// What a kill -9 leaves is removed by the next run that writes there: a PDF download's hidden
// `.part` file (killed for real, mid-body), and what `config set` leaves between its steps (the
// lock's link source, the config's temp: planted with the pid of a process that has ended, as
// the window is too short to hit).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NODE, runAssess, tempDir } from '../helpers/cli.js';
import { startServer } from '../helpers/http-server.js';
import { spawnAssess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';

const work = tempDir('assess-leftovers-');
afterAll(() => work.cleanup());

/** The pid of a process that has just ended (so none runs with it, for now). */
function deadPid(): number {
  const r = spawnSync(NODE, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('leftovers of killed runs', () => {
  it('a kill -9 during a PDF download leaves a .part file; the next download there removes it', async () => {
    // the first answer sends the start of a PDF and then nothing (the download waits); the next ones all of it
    const api = await startServer((_req, res, n) => {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      if (n === 1) res.write('%PDF-1.4\n% the first bytes\n');
      else res.end('%PDF-1.4\n% a whole report\n%%EOF\n');
    });
    try {
      const env = { ASSESS_BASE_URL: api.url, ASSESS_API_KEY: 'k-0123456789abcdef' };
      const dir = join(work.dir, 'pdf');
      mkdirSync(dir);
      const run = spawnAssess(['report', '900001', '--pdf', '-o', join(dir, 'ann.pdf')], { env });
      const parts = () => readdirSync(dir).filter((f) => f.endsWith('.part'));
      await waitFor(() => parts().length === 1 || run.child.exitCode !== null, { what: 'the .part file' });
      expect(await run.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
      expect(parts()).toEqual([
        expect.stringMatching(new RegExp(`^\\.ann\\.pdf\\.${run.child.pid}\\.[0-9a-f]{8}\\.part$`)),
      ]);

      const next = await runAssess(['report', '900002', '--pdf', '-o', join(dir, 'bo.pdf')], { env });
      expect(next.code, next.stderr).toBe(0);
      expect(readdirSync(dir).sort()).toEqual(['bo.pdf']);
    } finally {
      await api.close();
    }
  });

  it("config set removes the lock's link source and the temp file a killed config set left", async () => {
    const cfg = join(work.dir, 'config');
    const first = await runAssess(['config', 'set', 'output', 'json'], { configDir: cfg });
    expect(first.code, first.stderr).toBe(0);
    const pid = deadPid();
    const lockTemp = `.config.json.lock.${pid}.0123abcd`;
    const configTemp = `.config.json.${pid}.89abcdef.part`;
    writeFileSync(join(cfg, lockTemp), `${pid}\n`);
    writeFileSync(join(cfg, configTemp), '{\n\t"profiles": {');
    const r = await runAssess(['config', 'set', 'timeout', '60'], { configDir: cfg });
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(cfg).sort()).toEqual(['config.json']);
    expect(JSON.parse(readFileSync(join(cfg, 'config.json'), 'utf8')).profiles.default).toEqual({
      output: 'json',
      timeout: 60,
    });
  });
});
