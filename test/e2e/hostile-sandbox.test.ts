// Against the built `assess sandbox serve`: a cancel racing a reattempt answers with the state it
// wrote; SIGTERM exits 143. (A state file with an id counter set back by hand, and the other
// files it refuses: test/sandbox/http-persistence.test.ts, test/e2e/sandbox-state-shared.test.ts.)
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { spawnAssess } from '../helpers/spawn.js';

const work = tempDir('assess-sbx-hostile-');
afterAll(() => work.cleanup());

async function serve(stateFile: string) {
  const p = spawnAssess(['sandbox', 'serve', '--port', '0', '--json', '--state', stateFile]);
  const info = JSON.parse(await p.firstLine()) as { baseUrl: string; keys: string[] };
  return { p, info };
}

describe('sandbox under hostile conditions', () => {
  it('cancel racing a reattempt: every 200 answer of cancel says cancelled; SIGTERM exits 143', async () => {
    const { p, info } = await serve(join(work.dir, 'race.db'));
    const post = (path: string, body: unknown) =>
      fetch(`${info.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'X-API-KEY': info.keys[0]!, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const start = new Date(Date.now() + 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const end = new Date(Date.now() + 7 * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const answers: Array<{ status: number; body: { status?: string } }> = [];
    for (let i = 0; i < 25; i++) {
      const { testInvitationId: id } = (await (
        await post('/v3/tests/1001/invite', { email: `race${i}@sbx.example`, name: `Race ${i}` })
      ).json()) as {
        testInvitationId: number;
      };
      // cancel first, the reattempt (which reopens a cancelled invitation) right behind it
      const [c] = await Promise.all([
        post(`/v3/invitations/${id}/cancel`, {}),
        post(`/v3/invitations/${id}/reattempt`, { StartDateTime: start, EndDateTime: end, TimeZoneId: 1 }),
      ]);
      answers.push({ status: c.status, body: (await c.json()) as { status?: string } });
    }
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).toBeGreaterThan(0);
    for (const a of ok) expect(a.body.status?.toLowerCase()).toBe('cancelled');
    expect((await p.stop('SIGTERM')).code).toBe(143);
  });
});
