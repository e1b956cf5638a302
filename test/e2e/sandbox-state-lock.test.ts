// One sandbox per state file, as processes: a second `sandbox serve` on a file in use is refused
// (the first keeps serving), and `assess --sandbox` commands started at once take turns on the
// embedded sandbox's state instead of overwriting each other's changes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';
import { spawnAssess } from '../helpers/spawn.js';

const work = tempDir('assess-lock-');
afterAll(() => work.cleanup());

describe('state file lock', () => {
  it('a second `sandbox serve` on the same --state is refused with the holder pid; the first keeps serving', async () => {
    const stateFile = join(work.dir, 'shared.json');
    const first = spawnAssess(['sandbox', 'serve', '--port', '0', '--json', '--state', stateFile]);
    try {
      const info = JSON.parse(await first.firstLine()) as { baseUrl: string; keys: string[] };
      const second = await runAssess(['sandbox', 'serve', '--port', '0', '--json', '--state', stateFile]);
      expect(second.code).toBe(1);
      expect(second.stdout).toBe('');
      expect(second.stderr).toMatch(
        new RegExp(
          `${stateFile.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is in use by another sandbox \\(pid ${first.child.pid}\\)`,
        ),
      );
      const res = await fetch(`${info.baseUrl}/v3/tests`, { headers: { 'X-API-KEY': info.keys[0]! } });
      expect(res.status).toBe(200);
    } finally {
      expect((await first.stop('SIGINT')).code).toBe(0);
    }
    const again = spawnAssess(['sandbox', 'serve', '--port', '0', '--json', '--state', stateFile]);
    JSON.parse(await again.firstLine());
    expect((await again.stop('SIGTERM')).code).toBe(143); // 128 + SIGTERM (issue 15)
  });

  it('five `assess --sandbox invite` run at once: all five invitations are in the state afterwards', async () => {
    const config = tempDir('assess-lock-cfg-');
    try {
      const runs = await Promise.all(
        [1, 2, 3, 4, 5].map((n) =>
          runAssess(
            [
              '--sandbox',
              'invite',
              '1001',
              '--email',
              `turn${n}@example.com`,
              '--name',
              `Turn ${n}`,
              '--json',
              'testInvitationId',
            ],
            {
              configDir: config.dir,
            },
          ),
        ),
      );
      for (const r of runs) expect(r.code, r.stderr).toBe(0);
      const ids = runs.map((r) => (JSON.parse(r.stdout) as { testInvitationId: number }).testInvitationId);
      expect(new Set(ids).size).toBe(5);
      const state = JSON.parse(readFileSync(join(config.dir, 'sandbox', 'state.json'), 'utf8')) as {
        invitations: Array<{ email: string }>;
      };
      const emails = state.invitations.map((i) => i.email).filter((e) => e.startsWith('turn'));
      expect(emails.sort()).toEqual([1, 2, 3, 4, 5].map((n) => `turn${n}@example.com`));
    } finally {
      config.cleanup();
    }
  });
});
