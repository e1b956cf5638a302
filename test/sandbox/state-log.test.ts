// --state as a snapshot plus a change log (<state>.log): what a crash leaves loads to what was
// acknowledged. "A crash" here is a copy of the files taken while the sandbox runs (every 2xx
// change is in the log by then); test/sandbox/state-kill.test.ts kills a real process.
import { copyFileSync, existsSync } from 'node:fs';
import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadStateFile } from '../../src/sandbox/persistence.js';
import { startServer } from '../helpers/http-server.js';
import { FULL_SETTINGS, harness, REATTEMPT_BODY, type Harness } from './helpers.js';
import { v2 } from './v2-helpers.js';
import { waitFor } from '../helpers/wait.js';

let dir: string;
let n = 0;
beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'assess-state-log-'))));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The state file and its log as they are now, copied aside (what kill -9 would leave). */
function crashCopy(file: string): string {
  const copy = join(dir, `copy-${++n}.json`);
  copyFileSync(file, copy);
  if (existsSync(`${file}.log`)) copyFileSync(`${file}.log`, `${copy}.log`);
  return copy;
}

const withoutRequests = ({ requests: _r, ...rest }: Record<string, unknown>) => rest;
const live = async (h: Harness) => withoutRequests((await h.control('GET', '/state')).body);
const loaded = async (file: string) => {
  const { logSeq: _s, ...doc } = (await loadStateFile(file))!.doc;
  return withoutRequests(JSON.parse(JSON.stringify(doc)));
};

/** Every kind of change the sandbox makes, through its API. */
async function everyKindOfChange(h: Harness, hook: string) {
  const call = v2(h);
  const a = await h.inviteA(1001, 'a@log.test', { callbackUrl: hook, sendEmail: 'yes' });
  const b = await h.inviteA(1001, 'b@log.test');
  await h.inviteA(1003, 'first-on-1003@log.test'); // may create the test's default link
  await h.api('POST', '/v3/tests/1001/invite', {
    email: 'A@log.test',
    name: 'Renamed',
    endDateTime: '2099-01-01T00:00:00Z',
  }); // re-invite
  await h.api('POST', '/v3/tests/1001/testlinks/5002/invite', { email: 'bylink@log.test', name: 'By Link' });
  await h.move(a, 'start');
  await h.move(a, 'complete', { score: 70 });
  expect((await h.api('POST', `/v3/invitations/${a}/reattempt`, { ...REATTEMPT_BODY, CallbackUrl: hook })).status).toBe(
    200,
  );
  expect((await h.api('POST', `/v3/invitations/${b}/cancel`)).status).toBe(200);
  expect((await h.api('POST', '/v3/callbacks/process', { testinvitationIds: [a] })).status).toBe(200);
  const link = await h.api('POST', '/v3/tests/1001/testlinks', {
    testLinkName: 'Logged',
    invitationType: 'open',
    invitationSchedule: {
      scheduleType: 'validityindays',
      scheduleDetails: { invitationValidityInDays: 2, timeZoneId: 1 },
    },
  });
  expect(
    (await h.api('POST', `/v3/tests/1001/testlinks/${link.body.testLinkId}`, { testLinkStatus: 'inactive' })).status,
  ).toBe(200);
  expect(
    (
      await h.api('POST', '/v3/tests/1002/settings', {
        ...FULL_SETTINGS,
        testSettings: { ...FULL_SETTINGS.testSettings, testName: 'Renamed' },
      })
    ).status,
  ).toBe(201);
  expect((await call('POST', '/v2/org/tests/1003/register', { emailId: 'reg@log.test', fullName: 'Reg' })).status).toBe(
    200,
  );
  await h.control('POST', '/clock', { advance: '10d' }); // Pending invitations expire
  await h.inviteA(1001, 'late@log.test');
  expect(await h.sb.idle(10_000)).toBe(true); // callback deliveries finished (their tries are logged)
}

describe('the change log', () => {
  it('after every kind of change, a crash copy loads to exactly the live state (default compaction and a tiny one)', async () => {
    const server = await startServer((_req, res) => res.writeHead(200).end());
    try {
      for (const compactAfterBytes of [undefined, 1]) {
        const file = join(dir, `every-${compactAfterBytes ?? 'default'}.json`);
        const h = await harness({ stateFile: file, compactAfterBytes });
        try {
          await everyKindOfChange(h, `${server.url}/hook`);
          const state = await live(h);
          expect(
            (state.deliveries as Array<{ state: string }>).filter((d) => d.state === 'delivered').length,
          ).toBeGreaterThan(1);
          expect((state.outbox as unknown[]).length).toBeGreaterThan(1);
          // changes made by reads are written by a 50 ms debounce, not before an answer: waited for
          // (a fixed 200 ms pause was too short on a loaded machine)
          const matches = async () => {
            try {
              expect(await loaded(crashCopy(file))).toEqual(state);
              return true;
            } catch {
              return false;
            }
          };
          await waitFor(matches, { intervalMs: 50, what: 'the debounced write of the changes made by reads' });
          expect(await loaded(crashCopy(file))).toEqual(state);
        } finally {
          await h.close();
        }
        expect(existsSync(`${file}.log`)).toBe(false); // a clean stop folds the log into the state file
      }
    } finally {
      await server.close();
    }
  });

  it('a 2xx change is in the log before the answer, not in the snapshot: the log carries it', async () => {
    const file = join(dir, 'answer.json');
    const h = await harness({ stateFile: file });
    try {
      const before = (await stat(file)).mtimeMs;
      const id = await h.inviteA(1001, 'logged@log.test');
      expect((await stat(file)).mtimeMs).toBe(before); // the snapshot is not rewritten per change
      expect(await readFile(`${file}.log`, 'utf8')).toContain(`"testInvitationId":${id},`);
    } finally {
      await h.close();
    }
  });

  it('compaction: the log is folded into an atomic snapshot and emptied, and nothing is lost', async () => {
    const file = join(dir, 'compact.json');
    const h = await harness({ stateFile: file, compactAfterBytes: 1 });
    try {
      const ids: number[] = [];
      for (let i = 0; i < 150; i++) ids.push(await h.inviteA(1001, `c${i}@log.test`));
      const snap = JSON.parse(await readFile(file, 'utf8'));
      expect(snap.logSeq).toBeGreaterThan(0); // snapshots were written while it ran
      expect((await stat(`${file}.log`)).size).toBeLessThan((await stat(file)).size);
      const doc = (await loadStateFile(crashCopy(file)))!.doc;
      expect(ids.every((id) => doc.invitations.some((i) => i.testInvitationId === id))).toBe(true);
    } finally {
      await h.close();
    }
  });

  it('a torn last line (a crash mid-write) is ignored on load, cut off, and the log goes on after it', async () => {
    const file = join(dir, 'torn.json');
    const h = await harness({ stateFile: file });
    let copy: string;
    let id: number;
    try {
      id = await h.inviteA(1001, 'kept@log.test');
      copy = crashCopy(file);
    } finally {
      await h.close();
    }
    await appendFile(`${copy}.log`, '{"n":99,"clock":[0,null],"nextIds":{"testLink":1,"inv'); // no newline: torn
    const h2 = await harness({ stateFile: copy });
    try {
      expect((await h2.control('GET', `/invitations/${id}`)).status).toBe(200);
      expect((await readFile(`${copy}.log`, 'utf8')).endsWith('\n')).toBe(true); // the torn bytes are gone
      const next = await h2.inviteA(1001, 'after@log.test');
      const doc = (await loadStateFile(crashCopy(copy)))!.doc;
      expect(doc.invitations.map((i) => i.testInvitationId)).toEqual(expect.arrayContaining([id, next]));
    } finally {
      await h2.close();
    }
  });

  it('a damaged line before the last is not a crash: refused, naming the log, files untouched', async () => {
    const file = join(dir, 'damaged.json');
    const h = await harness({ stateFile: file });
    let copy: string;
    try {
      await h.inviteA(1001, 'one@log.test');
      await h.inviteA(1001, 'two@log.test');
      copy = crashCopy(file);
    } finally {
      await h.close();
    }
    const lines = (await readFile(`${copy}.log`, 'utf8')).split('\n');
    lines[0] = lines[0]!.slice(0, 20);
    await writeFile(`${copy}.log`, lines.join('\n'));
    await expect(harness({ stateFile: copy })).rejects.toThrow(
      `${copy}.log is not usable: line 1 of the log is not a change record`,
    );
    expect(await readFile(`${copy}.log`, 'utf8')).toBe(lines.join('\n'));
  });

  it('an invitation that is not one (in the snapshot or the log) is refused, naming the field', async () => {
    const file = join(dir, 'bad-invitation.json');
    const h = await harness({ stateFile: file });
    let copy: string;
    try {
      await h.inviteA(1001, 'fine@log.test');
      copy = crashCopy(file);
    } finally {
      await h.close();
    }
    const log = await readFile(`${copy}.log`, 'utf8');
    await writeFile(`${copy}.log`, log.replace('"email":"fine@log.test"', '"email":42'));
    await expect(harness({ stateFile: copy })).rejects.toThrow(/invitations\.\d+\.email: expected a string/);
  });

  it('a log left without its state file (deleted to start again) is emptied: the sandbox starts from the seed', async () => {
    const file = join(dir, 'orphan.json');
    await writeFile(
      `${file}.log`,
      '{"n":1,"clock":[0,null],"nextIds":{"testLink":1,"invitation":1,"event":1,"email":1},"inv":[]}\n',
    );
    const h = await harness({ stateFile: file });
    try {
      expect((await stat(`${file}.log`)).size).toBe(0);
      const id = await h.inviteA(1001, 'fresh@log.test');
      expect((await loadStateFile(crashCopy(file)))!.doc.invitations.some((i) => i.testInvitationId === id)).toBe(true);
    } finally {
      await h.close();
    }
  });

  it('a state file written before the log existed (the whole state, no logSeq) loads, and takes a log from then on', async () => {
    const mem = await harness();
    let old: Record<string, unknown>;
    let id: number;
    try {
      id = await mem.inviteA(1001, 'old-format@log.test');
      old = (await mem.control('GET', '/state')).body;
    } finally {
      await mem.close();
    }
    expect(old).not.toHaveProperty('logSeq');
    const file = join(dir, 'old-format.json');
    await writeFile(file, JSON.stringify(old));
    const h = await harness({ stateFile: file });
    try {
      expect((await h.control('GET', `/invitations/${id}`)).body).toMatchObject({ email: 'old-format@log.test' });
      const next = await h.inviteA(1001, 'new-era@log.test');
      const doc = (await loadStateFile(crashCopy(file)))!.doc;
      expect(doc.invitations.map((i) => i.testInvitationId)).toEqual(expect.arrayContaining([id, next]));
    } finally {
      await h.close();
    }
  });
});
