// Time zones by name: `assess timezones` lists the service's zones; --tz takes an id or a name,
// resolved through that list (kept for a day per profile), and the request carries the id.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess as run } from '../helpers/in-process.js';
import { json, startServer } from '../helpers/http-server.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
let cfg: { dir: string; cleanup: () => void };
beforeAll(async () => {
  s = await startTestSandbox();
  cfg = tempDir();
});
afterAll(async () => {
  await s.close();
  cfg.cleanup();
});
const opts = () => ({ env: s.env, configDir: cfg.dir });
const sent = async (since: number) => (await s.requests()).slice(since);

describe('assess timezones', () => {
  it('lists the zones with their ids; --search narrows them', async () => {
    const all = await run(['timezones', '--json'], opts());
    expect(all.code, all.stderr).toBe(0);
    expect(JSON.parse(all.stdout).length).toBeGreaterThan(20);
    const some = await run(['timezones', '--search', 'kolkata', '--json', 'timeZoneId,name'], opts());
    expect(JSON.parse(some.stdout)).toEqual([{ timeZoneId: 35, name: 'Asia/Kolkata' }]);
  });
});

describe('the time-zone cache', () => {
  it('an answer without the list is not kept: the next --tz asks again and finds the zone', async () => {
    const own = tempDir();
    const api = await startServer((_req, res, n) =>
      n === 1
        ? json(res, 200, { timeZones: null })
        : json(res, 200, { timeZones: [{ timeZoneId: 35, name: 'Asia/Kolkata', displayName: 'India' }] }),
    );
    try {
      const env = { ASSESS_BASE_URL: api.url, ASSESS_API_KEY: 'k-0123456789abcdef' };
      const empty = await run(['timezones', '--json'], { env, configDir: own.dir });
      expect(empty.code, empty.stderr).toBe(0);
      expect(JSON.parse(empty.stdout)).toEqual([]);
      const named = await run(['timezones', '--search', 'kolkata', '--json', 'timeZoneId'], {
        env,
        configDir: own.dir,
      });
      expect(named.code, named.stderr).toBe(0);
      expect(JSON.parse(named.stdout)).toEqual([{ timeZoneId: 35 }]);
      expect(api.requests.map((q) => q.url)).toEqual(['/v3/timezones', '/v3/timezones']);
    } finally {
      await api.close();
      own.cleanup();
    }
  });
});

describe('a time-zone cache that cannot be trusted is fetched again', () => {
  const KOLKATA = { timeZoneId: 35, name: 'Asia/Kolkata', displayName: 'India' };
  /** A service answering the list, a config dir with `plant` at the cache's path; what --tz Kolkata found. */
  async function withCache(plant: (path: string, baseUrl: string) => void) {
    const own = tempDir();
    const api = await startServer((_req, res) => json(res, 200, { timeZones: [KOLKATA] }));
    try {
      const dir = join(own.dir, 'cache');
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      plant(join(dir, 'timezones-default.json'), api.url);
      const env = { ASSESS_BASE_URL: api.url, ASSESS_API_KEY: 'k-0123456789abcdef' };
      const r = await run(['timezones', '--search', 'kolkata', '--json', 'timeZoneId'], { env, configDir: own.dir });
      return { ...r, fetched: api.requests.length };
    } finally {
      await api.close();
      own.cleanup();
    }
  }
  const cache = (baseUrl: string, fetchedAt: string, zones: unknown) => JSON.stringify({ baseUrl, fetchedAt, zones });
  const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000).toISOString();
  const wrong = [{ ...KOLKATA, timeZoneId: 777 }];

  it.each([
    ['a null entry', (p: string, u: string) => writeFileSync(p, cache(u, hoursAgo(1), [null]))],
    ['an entry without an id', (p: string, u: string) => writeFileSync(p, cache(u, hoursAgo(1), [{ name: 'X' }]))],
    ['a fetchedAt in the future', (p: string, u: string) => writeFileSync(p, cache(u, hoursAgo(-24 * 365), wrong))],
    ['a fetchedAt that is no time', (p: string, u: string) => writeFileSync(p, cache(u, 'soon', wrong))],
    ['older than a day', (p: string, u: string) => writeFileSync(p, cache(u, hoursAgo(25), wrong))],
    ["another base URL's", (p: string) => writeFileSync(p, cache('http://127.0.0.1:9', hoursAgo(1), wrong))],
    ['not JSON', (p: string) => writeFileSync(p, '{"baseUrl":')],
    ['JSON null', (p: string) => writeFileSync(p, 'null')],
    ['a symlink to /dev/zero', (p: string) => symlinkSync('/dev/zero', p)],
    [
      'a symlink to a good cache',
      (p: string, u: string) => {
        writeFileSync(`${p}.real`, cache(u, hoursAgo(1), wrong));
        symlinkSync(`${p}.real`, p);
      },
    ],
    ['a FIFO nobody writes to', (p: string) => execFileSync('mkfifo', [p])],
    ['a directory', (p: string) => mkdirSync(p)],
    [
      'larger than 4 MiB',
      (p: string, u: string) =>
        writeFileSync(p, cache(u, hoursAgo(1), wrong).replace('"zones"', `"pad":"${'x'.repeat(4 << 20)}","zones"`)),
    ],
  ])('%s: ignored, the list asked for again, the right id found', async (_what, plant) => {
    const r = await withCache(plant);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ timeZoneId: 35 }]);
    expect(r.fetched).toBe(1);
  });

  it('a good cache of the last day is used: nothing is asked for', async () => {
    const r = await withCache((p, u) => writeFileSync(p, cache(u, hoursAgo(23), wrong)));
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ timeZoneId: 777 }]);
    expect(r.fetched).toBe(0);
  });
});

describe('--tz by name', () => {
  it('reattempt --tz Asia/Kolkata sends TimeZoneId 35; the list is not fetched again the same day', async () => {
    await run(['timezones'], opts()); // fills the per-profile cache
    const since = (await s.requests()).length;
    const r = await run(['reattempt', '900001', '--start', 'now', '--end', '7d', '--tz', 'Asia/Kolkata'], opts());
    expect(r.code, r.stderr).toBe(0);
    const reqs = await sent(since);
    expect(reqs.map((q) => q.path)).toEqual(['/v3/invitations/900001/reattempt']);
    expect((reqs[0]!.body as { TimeZoneId: number }).TimeZoneId).toBe(35);
  });

  it('links create --tz "Eastern Time" and invite --tz utc resolve to ids', async () => {
    const since = (await s.requests()).length;
    const l = await run(
      ['links', 'create', '1001', '--name', 'TZ link', '--valid-days', '3', '--tz', 'Eastern Time', '--json'],
      opts(),
    );
    expect(l.code, l.stderr).toBe(0);
    expect(JSON.parse(l.stdout).invitationSchedule.scheduleDetails.timeZoneId).toBe(200);
    const i = await run(
      [
        'invite',
        '1001',
        '--email',
        'tz@example.com',
        '--name',
        'Tee Zed',
        '--start',
        'now',
        '--end',
        '3d',
        '--tz',
        'utc',
      ],
      opts(),
    );
    expect(i.code, i.stderr).toBe(0);
    const invite = (await sent(since)).find((q) => q.path === '/v3/tests/1001/invite')!;
    expect((invite.body as { timeZoneId: number }).timeZoneId).toBe(1);
  });

  it('an unknown or ambiguous name is exit 2 before anything but the list is asked for', async () => {
    const since = (await s.requests()).length;
    const unknown = await run(['reattempt', '900001', '--start', 'now', '--end', '7d', '--tz', 'Mars/Olympus'], opts());
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--tz: no time zone named 'Mars\/Olympus'/);
    const many = await run(['reattempt', '900001', '--start', 'now', '--end', '7d', '--tz', 'America'], opts());
    expect(many.code).toBe(2);
    // each candidate by name, its id beside it
    expect(many.stderr).toMatch(/--tz: 'America' matches \d+ time zones: America\/[A-Za-z_]+ \(id \d+\), /);
    const missing = await run(['reattempt', '900001', '--start', 'now', '--end', '7d'], opts());
    expect(missing.stderr).toMatch(/--tz: is required, e\.g\. --tz Asia\/Kolkata/); // a prompt asks by that example
    expect((await sent(since)).filter((q) => !q.path.startsWith('/v3/timezones'))).toEqual([]);
  });

  it('a CSV row names its time zone by id; a name there is a row error (the default can be a name)', async () => {
    const dir = tempDir();
    const csv = join(dir.dir, 'c.csv');
    writeFileSync(csv, 'email,name,timeZoneId\nrow@example.com,Row One,Asia/Kolkata\n');
    const r = await run(['invite', '1001', '--csv', csv, '--dry-run'], opts());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/timeZoneId: must be a time zone id \(a number\) in the CSV/);
    dir.cleanup();
  });
});

describe('config set tz: the profile default for --tz', () => {
  it('fills --tz where a time zone is needed; a flag still wins; unset brings back the error', async () => {
    const own = tempDir();
    const o = () => ({ env: s.env, configDir: own.dir });
    try {
      const bad = await run(['config', 'set', 'tz', '<bad>'], o());
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/^error: tz: must be a time zone id or name/m);
      expect((await run(['config', 'set', 'tz', 'Asia/Kolkata'], o())).code).toBe(0);
      expect((await run(['config', 'get', 'tz'], o())).stdout.trim()).toBe('Asia/Kolkata');

      let since = (await s.requests()).length;
      const r = await run(['reattempt', '900001', '--start', 'now', '--end', '7d'], o());
      expect(r.code, r.stderr).toBe(0);
      const reattempt = (await sent(since)).find((q) => q.path === '/v3/invitations/900001/reattempt')!;
      expect((reattempt.body as { TimeZoneId: number }).TimeZoneId).toBe(35);

      since = (await s.requests()).length;
      const flag = await run(['reattempt', '900001', '--start', 'now', '--end', '7d', '--tz', '1'], o());
      expect(flag.code, flag.stderr).toBe(0);
      expect(((await sent(since)).at(-1)!.body as { TimeZoneId: number }).TimeZoneId).toBe(1);

      const link = await run(['links', 'create', '1001', '--name', 'Profile tz', '--valid-days', '2', '--json'], o());
      expect(link.code, link.stderr).toBe(0);
      expect(JSON.parse(link.stdout).invitationSchedule.scheduleDetails.timeZoneId).toBe(35);

      // invite through a chosen link takes no --tz: the default must not make it a usage error
      since = (await s.requests()).length;
      const viaLink = await run(
        [
          'invite',
          '1001',
          '--link',
          JSON.parse(link.stdout).testLinkId.toString(),
          '--email',
          'pl@example.com',
          '--name',
          'Pea El',
        ],
        o(),
      );
      expect(viaLink.code, viaLink.stderr).toBe(0);
      expect(JSON.stringify((await sent(since)).at(-1)!.body)).not.toMatch(/timeZoneId/i);

      expect((await run(['config', 'unset', 'tz'], o())).code).toBe(0);
      const missing = await run(['reattempt', '900001', '--start', 'now', '--end', '7d', '--no-input'], o());
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(
        /--tz: is required, e\.g\. --tz Asia\/Kolkata \(or once: assess config set tz Asia\/Kolkata\)/,
      );
    } finally {
      own.cleanup();
    }
  });
});
