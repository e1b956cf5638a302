// Reading and writing the --state file. Writes are atomic: the whole document goes to a temp
// file in the same directory, then is renamed over the target, so a crash leaves either the old
// or the new state, never half of one. (No fsync: survives a killed process, not a power cut.)
// A file that is not sandbox state is refused, never overwritten.
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import * as z from 'zod';
import { STATE_FORMAT, type SandboxStateDoc } from './model.js';
import { processAlive } from '../util/process-alive.js';

export class SandboxStateError extends Error {
  override name = 'SandboxStateError';
}

// A structural check: enough to tell sandbox state from any other JSON or a truncated file.
const StateShape = z.object({
  format: z.literal(STATE_FORMAT),
  version: z.literal(1),
  clockOffsetMs: z.number(),
  clockFrozenAtMs: z.number().nullish(),
  nextIds: z.object({ testLink: z.number(), invitation: z.number(), event: z.number(), email: z.number() }),
  accounts: z.array(z.object({ accountId: z.number() }).loose()),
  tests: z.array(z.object({ testId: z.number(), accountId: z.number(), sections: z.array(z.any()) }).loose()),
  links: z.array(z.object({ testLinkId: z.number(), testId: z.number(), schedule: z.object({}).loose() }).loose()),
  settings: z.array(z.object({ testId: z.number(), settings: z.object({}).loose() })),
  invitations: z.array(z.object({ testInvitationId: z.number(), status: z.string(), email: z.string() }).loose()),
  callbackQueue: z.array(z.any()),
  outbox: z.array(z.any()),
  requests: z.array(z.any()),
});

function refuse(file: string, why: string): never {
  throw new SandboxStateError(
    `Sandbox state file ${file} is not usable: ${why}. It was left untouched. ` + `Move it aside or delete it to start again from the seed data.`,
  );
}

/** The stored state, or null when the file does not exist yet. */
export async function loadStateFile(file: string): Promise<SandboxStateDoc | null> {
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
  const checked = StateShape.safeParse(doc);
  if (!checked.success) {
    const first = checked.error.issues[0];
    refuse(file, `it is not sandbox state (${first.path.join('.') || 'document'}: ${first.message})`);
  }
  const inconsistent = consistencyProblem(doc as SandboxStateDoc);
  if (inconsistent) refuse(file, inconsistent);
  return doc as SandboxStateDoc;
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
    if (doc.nextIds[key] <= max) return `nextIds.${key} is ${doc.nextIds[key]} but ${what} ${max} already exists (it must be greater)`;
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
    if (!m || m[1] !== basename(file) || processAlive(Number(m[2]))) continue;
    await rm(join(dirname(file), name), { force: true });
    n++;
  }
  return n;
}

let tmpCounter = 0;

/** Writes `text` to `file` atomically (temp file in the same directory + rename). */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const dir = dirname(file);
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `.${basename(file)}.${process.pid}.${++tmpCounter}.tmp`);
  try {
    await writeFile(tmp, text, { mode: 0o600 });
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
