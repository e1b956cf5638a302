// `links get` for people (issue 34): the time zone by name beside its id on a terminal, and an
// open link's shareable URL, which answers while the sandbox runs; JSON stays the service's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess as runAssess } from '../helpers/in-process.js';

const cfg = tempDir('assess-links-view-');
const run = (args: string[], tty = false) =>
  runAssess(['--sandbox', ...args], { configDir: cfg.dir, tty, env: { COLUMNS: '120' } });
let openId: string;

beforeAll(async () => {
  const r = await run([
    'links',
    'create',
    '1001',
    '--name',
    'Walk-in',
    '--type',
    'open',
    '--valid-days',
    '7',
    '--tz',
    'Asia/Kolkata',
    '--json',
    'testLinkId',
  ]);
  expect(r.code, r.stderr).toBe(0);
  openId = String((JSON.parse(r.stdout) as { testLinkId: number }).testLinkId);
});
afterAll(() => cfg.cleanup());

describe('links get', () => {
  it('on a terminal: the zone by name with its id, and the share URL of an open link', async () => {
    const r = await run(['links', 'get', '1001', openId], true);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Time zone\s+Asia\/Kolkata \(35\)/);
    expect(r.stdout).toMatch(/Share URL\s+http:\/\/127\.0\.0\.1:\d+\/link\/tl-/);
    // the embedded sandbox ends with the command: say so, and how to keep it
    expect(r.stderr).toMatch(/assess sandbox start/);
  });

  it('an e-mail link has no share URL; JSON keeps the service fields (the zone id)', async () => {
    const email = await run(['links', 'get', '1001', '5002'], true);
    expect(email.stdout).not.toMatch(/Share URL/);
    const json = await run(['links', 'get', '1001', openId, '--json']);
    const link = JSON.parse(json.stdout) as Record<string, unknown> & {
      invitationSchedule: { scheduleDetails: { timeZoneId: number } };
    };
    expect(link.invitationSchedule.scheduleDetails.timeZoneId).toBe(35);
    expect(link).not.toHaveProperty('shareUrl');
  });
});

describe('the window times on a terminal', () => {
  // They once showed in this machine's zone, unlabelled, right beside the link's own zone.
  it('are UTC and say so, in links get and links list, whatever zone this machine is in', async () => {
    const created = await run([
      'links',
      'create',
      '1001',
      '--name',
      'Kolkata window',
      '--start',
      '2030-01-02T03:04:05Z',
      '--end',
      '2030-01-09T03:04:05Z',
      '--tz',
      '35',
      '--json',
      'testLinkId',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const id = String((JSON.parse(created.stdout) as { testLinkId: number }).testLinkId);
    const tz = process.env.TZ;
    process.env.TZ = 'America/New_York'; // dates the printer shows in local time would read 2030-01-01 22:04
    try {
      const one = await run(['links', 'get', '1001', id], true);
      expect(one.stdout).toMatch(/Start \(UTC\)\s+2030-01-02 03:04/);
      expect(one.stdout).toMatch(/End \(UTC\)\s+2030-01-09 03:04/);
      const all = await run(['links', 'list', '1001'], true);
      expect(all.stdout).toMatch(/Start \(UTC\).*End \(UTC\)/);
      expect(all.stdout).toMatch(/Kolkata window.*2030-01-02 03:04.*2030-01-09 03:04/);
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
    // machine formats keep the service's ISO text
    expect((await run(['links', 'list', '1001'])).stdout).toContain('2030-01-02T03:04:05Z\t2030-01-09T03:04:05Z');
  });
});
