// Store first, judge after, with the built binary: every documented shape of
// the notification — and what cannot be understood, and a body that is not JSON at all — is
// stored before the answer and answered 200; `callbacks inbox` lists each (the reason for what
// cannot be understood; non-JSON kept quarantined); --forward-to and --exec receive the
// stored bytes unchanged; `callbacks verify` on this (unsigned) inbox says so.
import { readFileSync } from 'node:fs';
import { storedNotifications } from '../helpers/inbox-store.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ndjson } from '../helpers/bulk.js';
import { runAssess, tempDir } from '../helpers/cli.js';
import { startServer } from '../helpers/http-server.js';
import { spawnAssess } from '../helpers/spawn.js';
import { waitFor } from '../helpers/wait.js';
import { seededRandom } from '../../src/sandbox/fault-spec.js';

const V3 = {
  CandidateEmailId: 'ann@example.com',
  AttemptedOn: '09-Oct-2020 06:51 PM',
  AttemptedOnUtc: '2020-10-09T13:21:53',
  TotalScore: 130,
  CandidateScore: 104,
  ReportPDFUrl: 'https://x.test/r.pdf',
  TestInvitationId: 0,
  Status: 'Complete',
  PerformanceCategory: 'Good',
};
const omit = (o: Record<string, unknown>, ...keys: string[]) =>
  Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));

/** [what, body text, invitation id it must be listed with (null: not understood), problem pattern]. */
const SHAPES: Array<[string, string, string | null, RegExp | null]> = [
  ['no ReportPDFUrl', JSON.stringify(omit({ ...V3, TestInvitationId: 7001 }, 'ReportPDFUrl')), '7001', null],
  ['no AttemptedOnUtc', JSON.stringify(omit({ ...V3, TestInvitationId: 7002 }, 'AttemptedOnUtc')), '7002', null],
  [
    'no PerformanceCategory',
    JSON.stringify(omit({ ...V3, TestInvitationId: 7003 }, 'PerformanceCategory')),
    '7003',
    null,
  ],
  [
    'older shape: BaseImgUrl, no Status',
    JSON.stringify({
      CandidateEmailId: 'o@x.co',
      AttemptedOn: '2020-10-09T13:21:53',
      TotalScore: 5,
      CandidateScore: 4,
      ReportPDFUrl: 'u',
      TestInvitationId: 7004,
      BaseImgUrl: 'b',
    }),
    '7004',
    null,
  ],
  [
    "the spec's v2 six-field object",
    JSON.stringify({
      CandidateEmailId: 'v@x.co',
      AttemptedOn: '2020-10-09T13:21:53',
      TotalScore: 5,
      CandidateScore: 4,
      ReportPDFUrl: 'u',
      TestInvitationId: 7005,
    }),
    '7005',
    null,
  ],
  [
    'names in any casing, numbers as strings',
    JSON.stringify({ testinvitationid: '7006', STATUS: 'completed', totalScore: '130', candidate_score: '97' }),
    '7006',
    null,
  ],
  [
    'nulls',
    JSON.stringify({
      ...V3,
      TestInvitationId: 7007,
      ReportPDFUrl: null,
      PerformanceCategory: null,
      AttemptedOnUtc: null,
      CandidateScore: null,
    }),
    '7007',
    null,
  ],
  [
    'ISO AttemptedOn with Z',
    JSON.stringify({ ...V3, TestInvitationId: 7008, AttemptedOn: '2020-10-09T13:21:53Z' }),
    '7008',
    null,
  ],
  ['no TestInvitationId', JSON.stringify(omit(V3, 'TestInvitationId')), null, /TestInvitationId is missing/],
  ['a JSON list', '[1,2,3]', null, /the body is a list, not a JSON object/],
  ['not JSON at all', 'CandidateEmailId=ann&Status=Complete', null, /the body is not JSON/],
];

/** Seeded variants of the v3 object: random casing, numbers as strings, nulls and missing optional fields. */
function variants(seed: number, n: number): Array<[string, string]> {
  const r = seededRandom(seed);
  const out: Array<[string, string]> = [];
  for (let i = 0; i < n; i++) {
    const id = String(8000 + i);
    const body: Record<string, unknown> = {
      ...V3,
      TestInvitationId: r() < 0.5 ? Number(id) : id,
      TotalScore: r() < 0.5 ? 130 : '130',
    };
    for (const k of ['ReportPDFUrl', 'AttemptedOnUtc', 'PerformanceCategory', 'AttemptedOn']) {
      const d = r();
      if (d < 0.25) delete body[k];
      else if (d < 0.5) body[k] = null;
    }
    const cased = Object.fromEntries(
      Object.entries(body).map(([k, v]) => [r() < 0.5 ? k.toLowerCase() : r() < 0.5 ? k.toUpperCase() : k, v]),
    );
    out.push([id, JSON.stringify(cased)]);
  }
  return out;
}

describe('callbacks listen stores first, then judges', () => {
  const cfg = tempDir();
  const inbox = join(cfg.dir, 'callbacks.db');
  const execOut = join(cfg.dir, 'exec.ndjson');
  let app: Awaited<ReturnType<typeof startServer>>;
  let listener: ReturnType<typeof spawnAssess>;
  let url: string;
  const answers: number[] = [];

  beforeAll(async () => {
    app = await startServer((_r, res) => res.writeHead(200).end());
    listener = spawnAssess(
      [
        'callbacks',
        'listen',
        '--port',
        '0',
        '--print-url',
        '--store',
        inbox,
        '--forward-to',
        `${app.url}/app`,
        '--exec',
        `cat >> '${execOut}'; echo >> '${execOut}'`,
      ],
      { configDir: cfg.dir },
    );
    url = await listener.firstLine();
    for (const [, body] of SHAPES) {
      const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await r.arrayBuffer();
      answers.push(r.status);
    }
    const json = SHAPES.filter(([what]) => what !== 'not JSON at all').length;
    await waitFor(() => app.requests.length >= json, { what: 'the forwards' });
    // complete lines only (a run's `echo` ends its line), and none before the first run made the file
    await waitFor(() => ndjson(execOut).length >= json, { what: 'the --exec runs' });
  }, 60_000);
  afterAll(async () => {
    await listener?.stop();
    await app.close();
    cfg.cleanup();
  });

  it('answers 200 to every body (each was stored first)', () => {
    expect(answers).toEqual(SHAPES.map(() => 200));
  });

  it('callbacks inbox lists every one: the understood ones with their invitation, the others with the reason', async () => {
    const r = await runAssess(['callbacks', 'inbox', '--store', inbox, '--json'], { configDir: cfg.dir });
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Array<{
      invitationId: number | string | null;
      problem: string | null;
      status: string | null;
    }>;
    expect(rows).toHaveLength(SHAPES.length);
    for (const [what, , id, problem] of SHAPES) {
      const row =
        id !== null
          ? rows.find((x) => x.invitationId !== null && String(x.invitationId) === id)
          : rows.find((x) => x.invitationId === null && problem!.test(x.problem ?? ''));
      expect(row, what).toBeDefined();
      if (id !== null) expect(row!.problem, what).toBeNull();
    }
    expect(rows.find((x) => x.invitationId === 7006)!.status).toBe('Complete');
    expect(r.stderr).toMatch(
      /3 stored requests could not be understood as a notification; the problem column says why\./,
    );
    const quarantined = storedNotifications(inbox).filter((n) => n.quarantined);
    expect(quarantined.map((n) => n.body.toString())).toEqual(['CandidateEmailId=ann&Status=Complete']);
  });

  it('forwards and --exec receive what was stored, unchanged (the JSON bodies; not the quarantined one)', () => {
    const sent = SHAPES.filter(([what]) => what !== 'not JSON at all').map(([, body]) => body);
    expect(app.requests.map((q) => q.body).sort()).toEqual([...sent].sort());
    const execBodies = readFileSync(execOut, 'utf8').split('\n').filter(Boolean);
    expect(execBodies.sort()).toEqual([...sent].sort());
    // stdout: one line per stored notification, read (vendor names, numbers) or, when not understood, as it came
    const printed = listener.lines().slice(1);
    expect(printed).toHaveLength(sent.length);
    expect(printed).toContain('[1,2,3]');
    expect(printed.map((l) => JSON.parse(l))).toContainEqual(
      expect.objectContaining({ TestInvitationId: 7006, Status: 'Complete', TotalScore: 130 }),
    );
  });

  it('stores and reads 25 seeded variants (casing, numbers as strings, nulls, missing optional fields)', async () => {
    const sent = variants(3301, 25);
    for (const [, body] of sent) {
      const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await r.arrayBuffer();
      expect(r.status, body).toBe(200);
    }
    const r = await runAssess(['callbacks', 'inbox', '--store', inbox, '--json', 'invitationId,status,problem'], {
      configDir: cfg.dir,
    });
    const rows = JSON.parse(r.stdout) as Array<{
      invitationId: number | string | null;
      status: string | null;
      problem: string | null;
    }>;
    for (const [id, body] of sent)
      expect(
        rows.find((x) => x.invitationId !== null && String(x.invitationId) === id),
        body,
      ).toEqual({ invitationId: Number(id), status: 'Complete', problem: null }); // the id rule: a number while exact
  });

  it('callbacks verify on this inbox says the requests were received unsigned (not "check the secret")', async () => {
    const r = await runAssess(['callbacks', 'verify', '--store', inbox], { configDir: cfg.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /these were received unsigned: none of the \d+ requests? in .* carries webhook-id or webhook-signature/,
    );
    expect(r.stderr).not.toMatch(/check the secret/);
  });
});
