// `assess callbacks process` against the sandbox: chunks of 100, merged results, a foreign id
// recorded as failed (exit 5) while the rest still go through, and bad input stopped early.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess as runAssess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
const work = tempDir('assess-callbacks-');
let ids: number[] = [];

/** 250 invitations of account A with a callback URL, started (so a callback is due). */
async function makeInvitations(n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${s.sb.baseUrl}/v3/tests/1001/invite`, {
      method: 'POST',
      headers: { 'X-API-KEY': s.env.ASSESS_API_KEY!, 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `cb${i}@example.com`,
        name: `Callback ${i}`,
        callbackURL: 'http://127.0.0.1:9/hook',
      }),
    });
    const id = ((await res.json()) as { testInvitationId: number }).testInvitationId;
    await s.control('POST', `/invitations/${id}/simulate`, { to: 'start' });
    out.push(id);
  }
  return out;
}

beforeAll(async () => {
  s = await startTestSandbox();
  ids = await makeInvitations(250);
}, 60_000);
afterAll(async () => {
  await s?.close();
  work.cleanup();
});

const run = (args: string[], stdin?: string) => runAssess(args, { env: s.env, stdin });
const processRequests = async () => (await s.requests()).filter((r) => r.path === '/v3/callbacks/process');

describe('assess callbacks process', () => {
  it('250 ids from a file (comments, commas, duplicates) → three requests of ≤ 100, one merged result', async () => {
    const file = join(work.dir, 'ids.txt');
    const lines = [
      '# invitations to re-notify',
      ids.slice(0, 10).join(', '),
      ...ids.slice(10).map(String),
      `${ids[0]} # again`,
      '',
    ];
    writeFileSync(file, lines.join('\n'));
    const before = (await processRequests()).length;
    const r = await run(['callbacks', 'process', '--file', file, '--json']);
    expect(r.code).toBe(0);
    const sent = (await processRequests()).slice(before);
    expect(sent).toHaveLength(3);
    expect(sent.map((q) => (q.body as { testinvitationIds: number[] }).testinvitationIds.length)).toEqual([
      100, 100, 50,
    ]);
    expect(sent.flatMap((q) => (q.body as { testinvitationIds: number[] }).testinvitationIds)).toEqual(ids);
    const out = JSON.parse(r.stdout) as Array<{ testInvitationId: number; status: string }>;
    expect(out.map((o) => o.testInvitationId)).toEqual(ids);
    expect(out.every((o) => o.status === 'successful')).toBe(true);
    expect(r.stderr).toContain('250 of 250 invitations queued');
  });

  it('an id of another account: recorded as failed with the message, the rest still sent, exit 5 with a summary', async () => {
    const mine = ids.slice(0, 3).map(String);
    const before = (await processRequests()).length;
    const r = await run(['callbacks', 'process', mine[0]!, '900008', mine[1]!, mine[2]!, '--json']);
    expect(r.code).toBe(5);
    const out = JSON.parse(r.stdout) as Array<{ testInvitationId: number; status: string; message: string | null }>;
    expect(out.map((o) => [o.testInvitationId, o.status])).toEqual([
      [Number(mine[0]), 'successful'],
      [900008, 'failed'],
      [Number(mine[1]), 'successful'],
      [Number(mine[2]), 'successful'],
    ]);
    expect(out[1]!.message).toMatch(/does not belong to this account/);
    expect(r.stderr).toContain('3 of 4 invitations queued for callback reprocessing, 1 failed: 900008');
    const sent = (await processRequests()).slice(before);
    expect(sent.map((q) => q.status)).toEqual([401, 200]);
  });

  it('ids the service reports as failed (no callback URL) count as failed too: TSV rows, exit 5', async () => {
    const r = await run(['callbacks', 'process', '900004', String(ids[5])]); // seed 900004 has no callback URL
    expect(r.code).toBe(5);
    expect(r.stdout).toBe(`900004\tfailed\treported as failed by the service\n${ids[5]}\tsuccessful\t\n`);
  });

  it('--csv and --ndjson; ids from standard input with --file -', async () => {
    const csv = await run(['callbacks', 'process', String(ids[1]), String(ids[2]), '--csv']);
    expect(csv.code).toBe(0);
    expect(csv.stdout).toBe(`testInvitationId,status,message\r\n${ids[1]},successful,\r\n${ids[2]},successful,\r\n`);
    const nd = await run(['callbacks', 'process', '--file', '-', '--ndjson'], `${ids[3]}\n${ids[4]}\n`);
    expect(nd.code).toBe(0);
    expect(
      nd.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { testInvitationId: ids[3], status: 'successful', message: null },
      { testInvitationId: ids[4], status: 'successful', message: null },
    ]);
  });

  it.each([
    [['abc'], '<ids>'],
    [['12', '-5'], "'-5'"],
    [[], '<ids>'],
    [['--file', 'missing-file.txt'], '--file'],
    [['12', '--file', 'x.txt'], '--file'],
  ])('bad input %j → exit 2 naming %s, nothing sent', async (args, flag) => {
    const before = (await s.requests()).length;
    const r = await run(['callbacks', 'process', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(flag);
    expect((await s.requests()).length).toBe(before);
  });

  it('a file with a bad token names the line, nothing sent', async () => {
    const file = join(work.dir, 'bad.txt');
    writeFileSync(file, `${ids[0]}\n# fine\n12x\n`);
    const before = (await s.requests()).length;
    const r = await run(['callbacks', 'process', '--file', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--file: line 3: not an invitation id');
    expect(r.stderr).not.toContain('12x'); // the file's content is never quoted
    expect((await s.requests()).length).toBe(before);
  });
});
