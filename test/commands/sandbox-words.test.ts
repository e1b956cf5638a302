// The words the sandbox commands take: `quirks off` (as `faults off`), `clock set now`
// and the other times of the one grammar; relative times in every time flag.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess as runAssess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let ts: TestSandbox;
beforeAll(async () => (ts = await startTestSandbox()));
afterAll(() => ts.close());
const url = () => ['--url', ts.sb.baseUrl];

describe('sandbox quirks off', () => {
  it('`off` as the argument turns quirks mode off, like --off', async () => {
    const on = await runAssess(['sandbox', 'quirks', '9', ...url(), '--json']);
    expect(JSON.parse(on.stdout)).toMatchObject({ seed: 9 });
    const off = await runAssess(['sandbox', 'quirks', 'off', ...url(), '--json']);
    expect(off.code, off.stderr).toBe(0);
    expect(JSON.parse(off.stdout)).toMatchObject({ seed: null });
  });
  it('anything else is refused naming both forms', async () => {
    const r = await runAssess(['sandbox', 'quirks', 'of', ...url()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/<seed>: must be a seed \(a whole number, e\.g\. 7\) or off/);
  });
});

describe('sandbox clock set', () => {
  it("`set now` returns the sandbox clock to this machine's time after an advance", async () => {
    const adv = await runAssess(['sandbox', 'clock', 'advance', '3d', ...url()]);
    expect(adv.code, adv.stderr).toBe(0);
    expect(Date.parse(adv.stdout.trim()) - Date.now()).toBeGreaterThan(2 * 86_400_000);
    const now = await runAssess(['sandbox', 'clock', 'set', 'now', ...url()]);
    expect(now.code, now.stderr).toBe(0);
    expect(Math.abs(Date.parse(now.stdout.trim()) - Date.now())).toBeLessThan(60_000);
  });
  it('`set tomorrow` is 00:00 UTC of the next day', async () => {
    const r = await runAssess(['sandbox', 'clock', 'set', 'tomorrow', ...url()]);
    expect(r.code, r.stderr).toBe(0);
    const d = new Date();
    expect(r.stdout.trim()).toMatch(
      new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)).toISOString().slice(0, 10),
    );
    await runAssess(['sandbox', 'clock', 'set', 'now', ...url()]);
  });
});

describe('sandbox verbs under --json', () => {
  it('clock prints its view, and advance/set the ids that expired (named on stderr without --json)', async () => {
    const shown = await runAssess(['sandbox', 'clock', ...url(), '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({
      now: expect.any(String),
      offsetMs: expect.any(Number),
      frozen: false,
    });
    const inv = await runAssess(
      [
        'invite',
        '1001',
        '--email',
        'expiring@example.com',
        '--name',
        'Ex Piring',
        '--start',
        'now',
        '--end',
        '+1h',
        '--json',
      ],
      {
        env: ts.env,
      },
    );
    expect(inv.code, inv.stderr).toBe(0);
    const id = (JSON.parse(inv.stdout) as { testInvitationId: number }).testInvitationId;
    const adv = await runAssess(['sandbox', 'clock', 'advance', '2h', ...url(), '--json']);
    expect(adv.code, adv.stderr).toBe(0);
    const view = JSON.parse(adv.stdout) as { now: string; offsetMs: number; expired: number[] };
    expect(view.offsetMs).toBeGreaterThan(7_100_000);
    expect(view.expired).toContain(id);
    const inv2 = await runAssess(
      [
        'invite',
        '1001',
        '--email',
        'expiring2@example.com',
        '--name',
        'Ex Piring',
        '--start',
        'now',
        '--end',
        '+1h',
        '--json',
      ],
      {
        env: ts.env,
      },
    );
    const id2 = (JSON.parse(inv2.stdout) as { testInvitationId: number }).testInvitationId;
    const text = await runAssess(['sandbox', 'clock', 'advance', '2h', ...url()]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^\d{4}-\d\d-\d\dT[\d:]+Z\n$/);
    expect(text.stderr).toContain(`1 invitation expired: ${id2}.`);
    const back = await runAssess(['sandbox', 'clock', 'set', 'now', ...url(), '--json', 'now,expired']);
    expect(Object.keys(JSON.parse(back.stdout))).toEqual(['now', 'expired']);
  });
  it('reset --yes --json prints what the sandbox answered', async () => {
    const r = await runAssess(['sandbox', 'reset', '--yes', ...url(), '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      reset: true,
      now: expect.any(String),
      tests: expect.any(Number),
      invitations: expect.any(Number),
    });
  });
  it('faults --json: spec is null when off, as GET /_sandbox/faults answers; people still read none', async () => {
    const r = await runAssess(['sandbox', 'faults', ...url(), '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ spec: null, total: 0 });
    const text = await runAssess(['sandbox', 'faults', ...url()]);
    expect(text.stdout).toMatch(/^spec\tnone$/m);
  });
});

describe('settings of the embedded sandbox (--sandbox without a shared one)', () => {
  it('quirks warn that they end with the command; faults and the clock, kept in the state file, stay (and faults say so)', async () => {
    const cfg = tempDir('assess-embedded-settings-');
    try {
      const run = (args: string[]) => runAssess(['--sandbox', 'sandbox', ...args], { configDir: cfg.dir });
      const faults = await run(['faults', '5xx=0.5,seed=1', '--json', 'spec']);
      expect(faults.code, faults.stderr).toBe(0);
      expect(JSON.parse(faults.stdout)).toEqual({ spec: '5xx=0.5,seed=1' });
      expect(faults.stderr).not.toMatch(/warning/);
      expect(faults.stderr).toMatch(
        /Every --sandbox command meets these faults until 'assess --sandbox sandbox faults --clear'/,
      );
      const later = await run(['faults', '--json', 'spec']);
      expect(JSON.parse(later.stdout)).toEqual({ spec: '5xx=0.5,seed=1' }); // kept for the next command
      expect(later.stderr).toMatch(
        /Injecting faults: 5xx=0\.5,seed=1 \(clear them with 'assess --sandbox sandbox faults --clear'\)/,
      );
      expect((await run(['faults', '--clear'])).code).toBe(0);
      expect(JSON.parse((await run(['faults', '--json', 'spec'])).stdout)).toEqual({ spec: null });

      const quirks = await run(['quirks', '7', '--json', 'seed']);
      expect(quirks.code, quirks.stderr).toBe(0);
      expect(quirks.stderr).toMatch(
        /warning: Quirks set on the embedded sandbox last only for this command.*--quirks 7/,
      );
      const off = await run(['quirks', 'off']);
      expect(off.stderr).not.toMatch(/warning/);

      const clock = await run(['clock', 'advance', '2d', '--json', 'offsetMs']);
      expect(clock.stderr).not.toMatch(/warning/);
      const again = JSON.parse((await run(['clock', '--json', 'offsetMs'])).stdout) as { offsetMs: number };
      expect(again.offsetMs).toBeGreaterThan(86_400_000); // kept: no warning needed
    } finally {
      cfg.cleanup();
    }
  });
  it('no warning when --url names a sandbox that keeps running', async () => {
    const r = await runAssess(['sandbox', 'faults', '5xx=0.1,seed=2', ...url()]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/warning/);
    await runAssess(['sandbox', 'faults', '--clear', ...url()]);
  });
});

describe('sandbox simulate --section-scores', () => {
  it("a count other than the test's sections is the flag's usage error (exit 2), naming the count; nothing moves", async () => {
    const inv = await runAssess(
      ['invite', '1001', '--email', 'sections@example.com', '--name', 'Sec Tions', '--json', 'testInvitationId'],
      { env: ts.env },
    );
    const id = String((JSON.parse(inv.stdout) as { testInvitationId: number }).testInvitationId);
    for (const scores of ['10,20,30,40,50', '10']) {
      const r = await runAssess(['sandbox', 'simulate', id, 'complete', '--section-scores', scores, ...url()]);
      expect(r.code, scores).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(`--section-scores: ${scores.split(',').length} scores? given, but test 1001 has 2 sections`),
      );
    }
    const ok = await runAssess([
      'sandbox',
      'simulate',
      id,
      'complete',
      '--section-scores',
      '100,0',
      ...url(),
      '--json',
      'status',
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ status: 'Complete' });
  });
});

describe('one grammar for time flags', () => {
  it('attempts list --from "30d ago" --to today and --from yesterday are accepted; --to 2d still means two days ago', async () => {
    for (const args of [
      ['--from', '30d ago', '--to', 'now'],
      ['--from', '-30d', '--to', 'tomorrow'],
      ['--from', 'yesterday'],
    ]) {
      const r = await runAssess(['attempts', 'list', ...args, '--json', 'testInvitationId'], { env: ts.env });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
    const wrong = await runAssess(['attempts', 'list', '--from', '1d', '--to', '2d'], { env: ts.env });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/--to/);
  });
  it('invite --start now --end "in 7d" (and +7d) gives a window of seven days', async () => {
    for (const end of ['in 7d', '+7d', '7d']) {
      const r = await runAssess(
        [
          'invite',
          '1001',
          '--email',
          'times@example.com',
          '--name',
          'Tim Es',
          '--start',
          'today',
          '--end',
          end,
          '--tz',
          '1',
          '--json',
        ],
        { env: ts.env },
      );
      expect(r.code, `${end}: ${r.stderr}`).toBe(0);
    }
  });
});
