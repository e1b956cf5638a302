// Records the sandbox keeps as JSON documents (a row's `doc`), read back through a small schema
// rather than cast: a row that is not such a record (written by hand, or by another program)
// fails where it is read, naming its table, not later as a missing field in some route. The
// check is of the record's kind (an object with its id), cheap on the hot path; the value is
// handed on as parsed, not copied.
import * as z from 'zod/mini';
import type { TestSettings } from '../api/schemas/v3.js';
import type {
  Account,
  CallbackQueueEntry,
  Delivery,
  OutboxEntry,
  RequestLogEntry,
  SandboxInvitation,
  SandboxLink,
  SandboxTest,
} from './model.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An object whose `key` is a safe integer (its id, a count). */
export const recordWith = <T>(key: string) =>
  z.custom<T>((v) => isObject(v) && Number.isSafeInteger(v[key]), { error: `not a record with its ${key}` });

/** What a seeded fault injector keeps (kept.ts): its spec, how many numbers it drew, its counters. */
export const seededState = <T>() =>
  z.custom<T>((v) => isObject(v) && isObject(v.spec) && Number.isSafeInteger(v.draws) && isObject(v.counters), {
    error: 'not a fault spec with its draws and counters',
  });

/** The record each table's documents hold. */
interface Records {
  accounts: Account;
  tests: SandboxTest;
  links: SandboxLink;
  settings: TestSettings;
  invitations: SandboxInvitation;
  callbacks: CallbackQueueEntry;
  outbox: OutboxEntry;
  requests: RequestLogEntry;
  deliveries: Delivery;
}
export type StoredTable = keyof Records;

const STORED: { [K in StoredTable]: z.ZodMiniType<Records[K]> } = {
  accounts: recordWith<Account>('accountId'),
  tests: recordWith<SandboxTest>('testId'),
  links: recordWith<SandboxLink>('testLinkId'),
  settings: z.custom<TestSettings>(isObject, { error: 'not an object of settings' }),
  invitations: recordWith<SandboxInvitation>('testInvitationId'),
  callbacks: recordWith<CallbackQueueEntry>('eventId'),
  outbox: recordWith<OutboxEntry>('emailId'),
  requests: recordWith<RequestLogEntry>('status'),
  deliveries: recordWith<Delivery>('deliveryId'),
};

/** A stored document (JSON text) of `table`. */
export function readRecord<K extends StoredTable>(table: K, doc: unknown): Records[K] {
  return readDoc(STORED[table], doc, table);
}

/** A stored document (JSON text) read with `schema`; one that does not pass is an error naming where it is kept. */
export function readDoc<T>(schema: z.ZodMiniType<T>, doc: unknown, where: string): T {
  let value: unknown;
  try {
    value = JSON.parse(String(doc));
  } catch {
    throw notARecord(where, 'not JSON');
  }
  const r = schema.safeParse(value);
  if (!r.success) throw notARecord(where, r.error.issues[0]?.message);
  return r.data;
}

const notARecord = (where: string, why: string | undefined) =>
  new Error(`the sandbox state's ${where} table holds a row that is not one of its records (${why})`);
