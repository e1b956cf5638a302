// Issue 15 item 13, against the built `assess sandbox serve`: a cancel racing a reattempt answers
// with the state it wrote; an inconsistent state file (nextIds behind existing ids) is refused at
// start (exit 1 with the reason) and left untouched; stale temp files of dead writers are
// removed at start; SIGTERM exits 143.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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

describe('sandbox under hostile conditions (item 13)', () => {
  it('cancel racing a reattempt: every 200 answer of cancel says cancelled; SIGTERM exits 143', async () => {
    const { p, info } = await serve(join(work.dir, 'race.json'));
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

  it('nextIds behind an existing id: exit 2 (a bad file) naming the reason, the file untouched', async () => {
    const file = join(work.dir, 'edited.json');
    const { p } = await serve(file);
    expect((await p.stop('SIGINT')).code).toBe(0);
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    doc.nextIds.invitation = doc.invitations[0].testInvitationId; // hand-edited backwards
    const text = JSON.stringify(doc);
    writeFileSync(file, text);
    const again = spawnAssess(['sandbox', 'serve', '--port', '0', '--state', file]);
    const r = await again.done;
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/nextIds\.invitation is \d+ but invitation \d+ already exists/);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it("stale temp files of dead writers are removed at start; a live writer's are kept", async () => {
    const file = join(work.dir, 'temps.json');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const stale = join(work.dir, `.temps.json.${dead}.3.tmp`);
    const live = join(work.dir, `.temps.json.${process.pid}.4.tmp`);
    writeFileSync(stale, '{"half":');
    writeFileSync(live, '{"half":');
    const { p } = await serve(file);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(live)).toBe(true);
    await p.stop('SIGINT');
  });
});
