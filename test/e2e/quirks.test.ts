// Every command meets a service whose answers vary as a real one's do: the sandbox in quirks mode
// (production forms, ids as strings, nulls, envelopes, 201/204, casings, spellings, extra and
// missing fields), 20 seeds. Each command must exit 0 with the right ids and counts, and the
// state-changing ones must change exactly what they should (checked in the sandbox's state).
// Commands run in-process (runCli: the same client, real HTTP to a real sandbox); the last block
// runs the built binary against a quirks sandbox for a few seeds.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { runAssess, tempDir } from '../helpers/cli.js';
import { memoryProcess } from '../helpers/memory-io.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);

interface Ran {
  code: number;
  out: string;
  err: string;
}

type Inv = { testInvitationId: number; email: string; status: string; testId: number; reattemptOf?: number | null };
type StateDoc = {
  invitations: Inv[];
  links: Array<{ testLinkId: number; testId: number; testLinkName: string }>;
  settings: Array<{
    testId: number;
    settings: { testSettings: { typeOfTest: number }; questionSettings: { randomQuestions: number } };
  }>;
};

function harness(s: TestSandbox, dir: string) {
  const env = { ...s.env, ASSESS_CONFIG_DIR: join(dir, 'config'), CI: 'true', NO_COLOR: '1' };
  const run = async (...argv: string[]): Promise<Ran> => {
    const p = memoryProcess(env);
    const code = await runCli(argv, p);
    return { code, out: p.out(), err: p.err() };
  };
  /** Runs, and fails the test with the command's stderr when it did not exit 0. */
  const ok = async (...argv: string[]): Promise<Ran> => {
    const r = await run(...argv);
    if (r.code !== 0) throw new Error(`assess ${argv.join(' ')} → exit ${r.code}\n${r.err}`);
    return r;
  };
  const json = async <T = any>(...argv: string[]): Promise<T> => JSON.parse((await ok(...argv, '--json')).out) as T;
  const state = () => s.control<StateDoc>('GET', '/state');
  return { run, ok, json, state };
}

describe.each(SEEDS)('quirks seed %i: every command meets the variance', (seed) => {
  let s: TestSandbox;
  let work: { dir: string; cleanup: () => void };
  let h: ReturnType<typeof harness>;
  beforeAll(async () => {
    s = await startTestSandbox();
    await s.control('POST', '/quirks', { seed });
    work = tempDir('assess-quirks-');
    h = harness(s, work.dir);
  });
  afterAll(async () => {
    await s.close();
    work.cleanup();
  });

  it('tests list / get, links list / get read the right ids', async () => {
    const tests = await h.json<Array<{ testId: number }>>('tests', 'list');
    expect(tests.map((t) => t.testId)).toEqual([1001, 1002, 1003, 1004]);
    expect((await h.json<{ testId: number }>('tests', 'get', '1001')).testId).toBe(1001);
    const links = await h.json<Array<{ testLinkId: number }>>('links', 'list', '1001');
    expect(links.map((l) => l.testLinkId).sort()).toEqual([5001, 5002, 5003, 5004]);
    expect((await h.json<{ testLinkId: number }>('links', 'get', '1001', '5002')).testLinkId).toBe(5002);
    // table and TSV output too (no false failure outside JSON)
    expect((await h.ok('tests', 'list')).out.split('\n').filter(Boolean)).toHaveLength(4);
  });

  it('invite (default link and chosen link) creates exactly one invitation each', async () => {
    const before = (await h.state()).invitations.length;
    const a = await h.json<{ testInvitationId: number }>(
      'invite',
      '1001',
      '--email',
      `d${seed}@example.com`,
      '--name',
      'Dee Fault',
    );
    const b = await h.json<{ testInvitationId: number }>(
      'invite',
      '1001',
      '--link',
      '5002',
      '--email',
      `l${seed}@example.com`,
      '--name',
      'Lee Link',
    );
    const st = await h.state();
    expect(st.invitations.length).toBe(before + 2);
    expect(st.invitations.find((i) => i.email === `d${seed}@example.com`)?.testInvitationId).toBe(a.testInvitationId);
    expect(st.invitations.find((i) => i.email === `l${seed}@example.com`)?.testInvitationId).toBe(b.testInvitationId);
  });

  it('attempts cancel cancels exactly that invitation (exit 0 whatever the answer looks like)', async () => {
    const inv = await h.json<{ testInvitationId: number }>(
      'invite',
      '1001',
      '--email',
      `c${seed}@example.com`,
      '--name',
      'Cy Cancel',
    );
    const r = await h.ok('attempts', 'cancel', String(inv.testInvitationId), '--yes', '--json');
    expect(JSON.parse(r.out)).toMatchObject({ testInvitationId: inv.testInvitationId, status: 'Cancelled' });
    const st = await h.state();
    expect(st.invitations.find((i) => i.testInvitationId === inv.testInvitationId)?.status).toBe('Cancelled');
    expect(st.invitations.filter((i) => i.status === 'Cancelled').map((i) => i.testInvitationId)).toEqual(
      expect.arrayContaining([inv.testInvitationId]),
    );
  });

  it('report (JSON, table, PDF) and attempts list read the seeded attempts', async () => {
    const rep = await h.json<{ testInvitationId: number; status: string }>('report', '900001', '--type', 'both');
    expect(rep.testInvitationId).toBe(900001);
    expect(rep.status).toBe('Complete');
    await h.ok('report', '900001', '--type', 'both');
    const pdf = join(work.dir, `r${seed}.pdf`);
    await h.ok('report', '900001', '--pdf', '-o', pdf);
    expect(readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');
    const attempts = await h.json<Array<{ testInvitationId: number; testStatus: string }>>(
      'attempts',
      'list',
      '--state',
      'completed',
      '--from',
      '30d',
      '--to',
      'now',
    );
    expect(attempts.map((a) => a.testInvitationId)).toEqual(expect.arrayContaining([900001, 900002, 900003]));
    expect(attempts.find((a) => a.testInvitationId === 900001)?.testStatus).toBe('Complete');
  });

  it('reattempt of a completed attempt makes exactly one new invitation', async () => {
    const before = (await h.state()).invitations.filter((i) => i.reattemptOf === 900002).length;
    const r = await h.json<{ testInvitationId: number }>(
      'reattempt',
      '900002',
      '--start',
      'now',
      '--end',
      '7d',
      '--tz',
      '1',
    );
    const after = (await h.state()).invitations.filter((i) => i.reattemptOf === 900002);
    expect(after.length).toBe(before + 1);
    expect(after.map((i) => i.testInvitationId)).toContain(r.testInvitationId);
  });

  it('callbacks process reports which ids were queued and which the service refused', async () => {
    const inv = await h.json<{ testInvitationId: number }>(
      'invite',
      '1001',
      '--email',
      `cb${seed}@example.com`,
      '--name',
      'Cee Bee',
      '--callback-url',
      'http://127.0.0.1:9/hook',
    );
    await s.control('POST', `/invitations/${inv.testInvitationId}/simulate`, { to: 'start' });
    // 900004 is Pending: nothing to re-send, the service lists it as failed → exit 5, rows still printed
    const r = await h.run('callbacks', 'process', String(inv.testInvitationId), '900004', '--json');
    expect(r.code, r.err).toBe(5);
    const rows = JSON.parse(r.out) as Array<{ testInvitationId: number; status: string }>;
    expect(rows.map((x) => [x.testInvitationId, x.status])).toEqual([
      [inv.testInvitationId, 'successful'],
      [900004, 'failed'],
    ]);
  });

  it('links create and update change exactly that link', async () => {
    const created = await h.json<{ testLinkId?: number }>(
      'links',
      'create',
      '1001',
      '--name',
      `Quirk ${seed}`,
      '--valid-days',
      '7',
      '--tz',
      '1',
    );
    let st = await h.state();
    const mine = st.links.filter((l) => l.testLinkName === `Quirk ${seed}`);
    expect(mine).toHaveLength(1);
    if (created.testLinkId !== undefined) expect(created.testLinkId).toBe(mine[0]!.testLinkId);
    await h.ok('links', 'update', '1001', String(mine[0]!.testLinkId), '--name', `Quirk ${seed} renamed`);
    st = await h.state();
    expect(st.links.filter((l) => l.testLinkName.startsWith(`Quirk ${seed}`)).map((l) => l.testLinkName)).toEqual([
      `Quirk ${seed} renamed`,
    ]);
  });

  it('settings get / set: a read-modify-write changes only what was asked', async () => {
    await h.ok('settings', 'get', '1002');
    const before = (await h.state()).settings.find((x) => x.testId === 1002)!.settings;
    await h.ok('settings', 'set', '1002', '--set', 'questionSettings.randomQuestions=1', '--yes');
    const after = (await h.state()).settings.find((x) => x.testId === 1002)!.settings;
    expect(after.questionSettings.randomQuestions).toBe(1);
    expect(after.testSettings).toEqual(before.testSettings);
  });

  it('bulk invite and report export: the right counts, no false failures', async () => {
    const csv = join(work.dir, 'cohort.csv');
    writeFileSync(csv, `email,name\n${[1, 2, 3].map((n) => `b${n}.s${seed}@example.com,Bulk ${n}`).join('\n')}\n`);
    const r = await h.run('invite', '1001', '--csv', csv);
    expect(r.code, r.err).toBe(0);
    const st = await h.state();
    expect(
      st.invitations.filter((i) => i.email.endsWith(`.s${seed}@example.com`) && i.email.startsWith('b')),
    ).toHaveLength(3);
    const out = join(work.dir, 'export');
    mkdirSync(out);
    const e = await h.run('report', 'export', '--state', 'completed', '--from', '30d', '--to', 'now', '--out', out);
    expect(e.code, e.err).toBe(0);
    const summary = readFileSync(join(out, 'summary.csv'), 'utf8').trim().split('\n');
    expect(summary.length - 1).toBe(3); // 900001, 900002, 900003
    expect(readdirSync(out)).toContain('summary.csv');
  });

  it('auth status, api, callbacks process --from-attempts and links migrate meet it too', async () => {
    await h.ok('auth', 'status');
    const raw = await h.ok('api', 'GET', '/v3/tests');
    expect(raw.out).toMatch(/1001/);
    const r = await h.run(
      'callbacks',
      'process',
      '--from-attempts',
      '--state',
      'completed',
      '--from',
      '30d',
      '--to',
      'now',
      '--json',
    );
    expect(r.code, r.err).toBe(0);
    expect((JSON.parse(r.out) as Array<{ testInvitationId: number }>).map((x) => x.testInvitationId)).toEqual(
      expect.arrayContaining([900001, 900002, 900003]),
    );
    const plan = await h.json<Array<{ v2TestLinkId: number; action: string }>>('links', 'migrate', '1001');
    expect(plan.length).toBeGreaterThan(0);
    // what --apply reports as created is exactly what was created (a link whose v2 answer lacked
    // what a mapping needs, e.g. a null timeZoneId under this seed, is reported unmappable)
    const before = (await h.state()).links.length;
    const applied = await h.json<Array<{ action: string }>>('links', 'migrate', '1001', '--apply');
    const created = (await h.state()).links.length - before;
    expect(created).toBe(applied.filter((p) => p.action === 'created').length);
    const again = await h.json<Array<{ action: string }>>('links', 'migrate', '1001', '--apply');
    expect((await h.state()).links.length - before).toBe(created + again.filter((p) => p.action === 'created').length);
  });

  it('v2: tests, links, register and report read the right ids', async () => {
    const tests = await h.json<Array<{ testId: number }>>('--api', 'v2', 'tests', 'list');
    expect(tests.map((t) => t.testId)).toEqual(expect.arrayContaining([1001, 1002]));
    expect((await h.json<{ testId: number }>('--api', 'v2', 'tests', 'get', '1001')).testId).toBe(1001);
    const links = await h.json<Array<{ testLinkId: number }>>('--api', 'v2', 'links', 'list', '1001');
    expect(links.length).toBeGreaterThan(0);
    const one = await h.json<{ testLinkId: number }>(
      '--api',
      'v2',
      'links',
      'get',
      '1001',
      String(links[0]!.testLinkId),
    );
    expect(one.testLinkId).toBe(links[0]!.testLinkId);
    const linksBefore = (await h.state()).links.length;
    await h.ok('--api', 'v2', 'links', 'create', '1001', '--name', `v2 quirk ${seed}`, '--anytime', '--tz', '1');
    expect((await h.state()).links.filter((l) => l.testLinkName === `v2 quirk ${seed}`)).toHaveLength(1);
    expect((await h.state()).links.length).toBe(linksBefore + 1);
    const before = (await h.state()).invitations.length;
    const reg = await h.json<{ testInvitationId: number }>(
      '--api',
      'v2',
      'invite',
      '1001',
      '--email',
      `v2.${seed}@example.com`,
      '--name',
      'Vee Two',
    );
    const st = await h.state();
    expect(st.invitations.length).toBe(before + 1);
    expect(st.invitations.find((i) => i.email === `v2.${seed}@example.com`)?.testInvitationId).toBe(
      reg.testInvitationId,
    );
    const rep = await h.json<{ testStatus?: string }>('--api', 'v2', 'report', '900001');
    expect(rep.testStatus).toBe('Completed');
  });
});

describe('the built binary against a quirks sandbox', () => {
  let s: TestSandbox;
  beforeAll(async () => {
    s = await startTestSandbox();
  });
  afterAll(() => s.close());

  it('assess sandbox quirks turns it on with a seed and off again', async () => {
    const on = await runAssess(['sandbox', 'quirks', '9', '--url', s.sb.baseUrl, '--json']);
    expect(on.code, on.stderr).toBe(0);
    expect(JSON.parse(on.stdout)).toMatchObject({ seed: 9 });
    expect(await s.control('GET', '/quirks')).toMatchObject({ seed: 9 });
    const off = await runAssess(['sandbox', 'quirks', '--off', '--url', s.sb.baseUrl]);
    expect(off.code, off.stderr).toBe(0);
    expect(await s.control('GET', '/quirks')).toMatchObject({ seed: null });
  });

  it.each([3, 11, 17])('seed %i: invite, report, cancel and tests list all exit 0', async (seed) => {
    await s.control('POST', '/quirks', { seed });
    const env = { env: s.env };
    const inv = await runAssess(
      ['invite', '1001', '--email', `bin${seed}@example.com`, '--name', 'Bin', '--json'],
      env,
    );
    expect(inv.code, inv.stderr).toBe(0);
    const id = String(JSON.parse(inv.stdout).testInvitationId);
    const rep = await runAssess(['report', id, '--json'], env);
    expect(rep.code, rep.stderr).toBe(0);
    expect(JSON.parse(rep.stdout).status).toBe('Pending');
    const cancel = await runAssess(['attempts', 'cancel', id, '--yes'], env);
    expect(cancel.code, cancel.stderr).toBe(0);
    const tests = await runAssess(['tests', 'list'], env);
    expect(tests.code, tests.stderr).toBe(0);
    expect(tests.stdout.trim().split('\n')).toHaveLength(4);
  });
});
