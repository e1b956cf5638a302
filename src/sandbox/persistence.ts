// Reading and writing the --state file: a snapshot of the whole document (written atomically: a
// temp file in the same directory, fsync'd, renamed over the target, the directory fsync'd), plus
// the change log beside it (state-log.ts) replayed on load. A file written before the log
// existed is a snapshot without a log: it loads as it is. A file that is not sandbox state, or a
// log damaged anywhere but in its last line, is refused, never overwritten.
import { open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import * as z from 'zod/mini';
import '../util/zod-settings.js'; // the refusal names zod's English message
import { STATE_FORMAT, type SandboxStateDoc } from './model.js';
import { processAlive } from '../util/process-alive.js';
import { writeAll } from '../util/write-all.js';
import { logPathOf, parseLog, replay } from './state-log.js';
import { makeDirs } from '../util/private-dir.js';

/**
 * An unusable state file (not sandbox state, damaged, inconsistent, unreadable), or, with
 * `inUse`, one another sandbox holds: the CLI maps the first to exit 2 (a bad file), the second to 1.
 */
export class SandboxStateError extends Error {
  override name = 'SandboxStateError';
  constructor(
    message: string,
    readonly inUse = false,
  ) {
    super(message);
  }
}

// A structural check: enough to tell sandbox state from any other JSON or a truncated file.
const StateShape = z.object({
  format: z.literal(STATE_FORMAT),
  version: z.literal(1),
  clockOffsetMs: z.number(),
  clockFrozenAtMs: z.nullish(z.number()),
  nextIds: z.object({ testLink: z.number(), invitation: z.number(), event: z.number(), email: z.number() }),
  accounts: z.array(z.looseObject({ accountId: z.number() })),
  tests: z.array(z.looseObject({ testId: z.number(), accountId: z.number(), sections: z.array(z.any()) })),
  links: z.array(z.looseObject({ testLinkId: z.number(), testId: z.number(), schedule: z.looseObject({}) })),
  settings: z.array(z.object({ testId: z.number(), settings: z.looseObject({}) })),
  invitations: z.array(z.unknown()), // checked by invitationProblem: zod costs seconds on 100,000 of them
  callbackQueue: z.array(z.any()),
  outbox: z.array(z.any()),
  requests: z.array(z.any()),
  logSeq: z.optional(z.number().check(z.int(), z.nonnegative())),
});

function refuse(file: string, why: string): never {
  throw new SandboxStateError(
    `Sandbox state file ${file} is not usable: ${why}. It was left untouched. ` +
      `Move it aside or delete it to start again from the seed data.`,
  );
}

export interface LoadedState {
  /** The snapshot with the log replayed over it. */
  doc: SandboxStateDoc;
  snapshotBytes: number;
  /** Bytes of the log's complete lines (a torn last line after them is cut off on open). */
  logBytes: number;
  tornBytes: number;
}

/** The stored state (snapshot + log), or null when the state file does not exist yet. */
export async function loadStateFile(file: string): Promise<LoadedState | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    refuse(file, `it cannot be read (${(err as Error).message})`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    refuse(file, `it is not valid JSON (${(err as Error).message})`);
  }
  const shape = StateShape.safeParse(doc);
  if (!shape.success) refuse(file, `it is not sandbox state (${where(shape.error)})`);
  const log = await readLog(file);
  const merged = replay(doc as SandboxStateDoc, log.records);
  if (log.records.length) {
    const checked = StateShape.safeParse(merged);
    if (!checked.success) refuse(logPathOf(file), `its changes do not make sandbox state (${where(checked.error)})`);
  }
  const badInvitation = invitationProblem(merged.invitations);
  if (badInvitation)
    refuse(log.records.length ? `${file} (with its log)` : file, `it is not sandbox state (${badInvitation})`);
  const inconsistent = consistencyProblem(merged);
  if (inconsistent) refuse(file, inconsistent);
  return { doc: merged, snapshotBytes: text.length, logBytes: log.goodBytes, tornBytes: log.tornBytes };
}

/** What zod's `{testInvitationId: number, status: string, email: string}` per invitation checked, as a loop. */
function invitationProblem(list: unknown[]): string | null {
  for (let i = 0; i < list.length; i++) {
    const inv = list[i] as Record<string, unknown> | null;
    if (typeof inv !== 'object' || inv === null || Array.isArray(inv)) return `invitations.${i}: expected an object`;
    for (const [key, type] of INVITATION_FIELDS)
      if (typeof inv[key] !== type) return `invitations.${i}.${key}: expected a ${type}`;
  }
  return null;
}
const INVITATION_FIELDS = [
  ['testInvitationId', 'number'],
  ['status', 'string'],
  ['email', 'string'],
] as const;

const where = (error: z.core.$ZodError) =>
  `${error.issues[0].path.join('.') || 'document'}: ${error.issues[0].message}`;

async function readLog(file: string): Promise<ReturnType<typeof parseLog> & { problem?: undefined }> {
  let buf: Buffer;
  try {
    buf = await readFile(logPathOf(file));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], goodBytes: 0, tornBytes: 0 };
    refuse(logPathOf(file), `it cannot be read (${(err as Error).message})`);
  }
  const parsed = parseLog(buf);
  if ('problem' in parsed) refuse(logPathOf(file), parsed.problem);
  return parsed;
}

/**
 * The counters must be ahead of every id in use: a hand-edited file with `nextIds` behind would
 * hand out an existing id again, and the new invitation would overwrite a completed attempt.
 */
export function consistencyProblem(doc: SandboxStateDoc): string | null {
  const checks: Array<[keyof SandboxStateDoc['nextIds'], string, number[]]> = [
    ['invitation', 'invitation', doc.invitations.map((i) => i.testInvitationId)],
    ['testLink', 'test link', doc.links.map((l) => l.testLinkId)],
    ['event', 'callback event', (doc.callbackQueue as Array<{ eventId?: number }>).map((e) => e.eventId ?? 0)],
    ['email', 'e-mail', (doc.outbox as Array<{ emailId?: number }>).map((e) => e.emailId ?? 0)],
  ];
  for (const [key, what, ids] of checks) {
    const max = ids.reduce((a, b) => Math.max(a, b), 0);
    if (doc.nextIds[key] <= max)
      return `nextIds.${key} is ${doc.nextIds[key]} but ${what} ${max} already exists (it must be greater)`;
  }
  const seen = new Set<number>();
  for (const inv of doc.invitations) {
    if (seen.has(inv.testInvitationId)) return `invitation ${inv.testInvitationId} appears twice`;
    seen.add(inv.testInvitationId);
  }
  return null;
}

const TEMP = /^\.(.+)\.(\d+)\.\d+\.tmp$/;

/** Removes `.<state>.<pid>.<n>.tmp` files whose writer is gone (killed mid-write); returns how many. */
export async function removeStaleTemps(file: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dirname(file));
  } catch {
    return 0;
  }
  let n = 0;
  for (const name of names) {
    const m = TEMP.exec(name);
    if (!m || m[1] !== basename(file)) continue;
    const writtenAtMs = await stat(join(dirname(file), name)).then(
      (st) => st.mtimeMs,
      () => undefined,
    );
    if (processAlive(Number(m[2]), undefined, writtenAtMs)) continue;
    await rm(join(dirname(file), name), { force: true });
    n++;
  }
  return n;
}

let tmpCounter = 0;

/** Writes `text` to `file` atomically and durably (temp file in the same directory, fsync, rename, fsync of the directory). */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const dir = dirname(file);
  makeDirs(dir, 0o777);
  const tmp = join(dir, `.${basename(file)}.${process.pid}.${++tmpCounter}.tmp`);
  try {
    const fh = await open(tmp, 'wx', 0o600);
    try {
      const buf = Buffer.from(text, 'utf8');
      await writeAll(fh.fd, buf); // the CLI's one write path: all of it, or the system's reason
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  await syncDir(dir);
}

/** Makes a rename in `dir` durable (where the platform lets a directory be opened and synced). */
async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r').catch(() => null);
  if (!fh) return;
  try {
    await fh.sync();
  } catch {
    // some filesystems refuse fsync on a directory (EINVAL); the rename is then as durable as they make it
  } finally {
    await fh.close();
  }
}
