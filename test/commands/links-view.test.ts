// `links get` for people: the time zone by name beside its id on a terminal, and an
// open link's shareable URL, which answers while the sandbox runs; JSON stays the service's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess as runAssess } from '../helpers/in-process.js';

const cfg = tempDir('assess-links-view-');
const run = (args: string[], tty = false, tz = 'UTC') =>
  runAssess(['--sandbox', ...args], { configDir: cfg.dir, tty, env: { COLUMNS: '160', TZ: tz } });
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
    expect(r.stdout).toMatch(/Time zone\s+Asia\/Kolkata \(id 35\)/);
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
  // They once showed in this machine's zone unlabelled, then in UTC: now in this machine's zone
  // (TZ), named beside each time, as every time on a terminal is.
  it("are in this machine's zone and say which, in links get and links list", async () => {
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
    const one = await run(['links', 'get', '1001', id], true, 'America/New_York');
    expect(one.stdout).toMatch(/^Start\s+2030-01-01 22:04 EST$/m);
    expect(one.stdout).toMatch(/^End\s+2030-01-08 22:04 EST$/m);
    expect(one.stdout).toMatch(/^Time zone\s+Asia\/Kolkata \(id 35\)$/m); // the link's own, for its candidates
    const all = await run(['links', 'list', '1001'], true, 'America/New_York');
    expect(all.stdout).toMatch(/Kolkata window.*2030-01-01 22:04 EST.*2030-01-08 22:04 EST.*Asia\/Kolkata \(id 35\)/);
    const utc = await run(['links', 'get', '1001', id], true);
    expect(utc.stdout).toMatch(/^Start\s+2030-01-02 03:04 UTC$/m);
    // machine formats keep the service's ISO text, and the zone's id
    const tsv = (await run(['links', 'list', '1001'], false, 'America/New_York')).stdout;
    expect(tsv).toContain('2030-01-02T03:04:05Z\t2030-01-09T03:04:05Z\t35');
  });
});
