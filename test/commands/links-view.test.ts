// `links get` for people (issue 34): the time zone by name beside its id on a terminal, and an
// open link's shareable URL, which answers while the sandbox runs; JSON stays the service's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess as runAssess } from '../helpers/in-process.js';

const cfg = tempDir('assess-links-view-');
const run = (args: string[], tty = false) => runAssess(['--sandbox', ...args], { configDir: cfg.dir, tty, env: { COLUMNS: '120' } });
let openId: string;

beforeAll(async () => {
  const r = await run(['links', 'create', '1001', '--name', 'Walk-in', '--type', 'open', '--valid-days', '7', '--tz', 'Asia/Kolkata', '--json', 'testLinkId']);
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
    const link = JSON.parse(json.stdout) as Record<string, unknown> & { invitationSchedule: { scheduleDetails: { timeZoneId: number } } };
    expect(link.invitationSchedule.scheduleDetails.timeZoneId).toBe(35);
    expect(link).not.toHaveProperty('shareUrl');
  });
});
