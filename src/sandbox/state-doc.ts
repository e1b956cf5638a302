// The sandbox's state as one document: the seed written into a new (or reset) state, and the
// whole state read back for GET /_sandbox/state and for tests.
import type { SandboxStateDoc } from './model.js';
import { buildSeedState } from './seed.js';
import type { Store } from './store.js';
import { readRecord } from './stored.js';

/** The tables a reset empties (the faults are settings of the sandbox, not its data). */
const DATA = [
  'meta',
  'accounts',
  'tests',
  'links',
  'settings',
  'invitations',
  'callbacks',
  'outbox',
  'deliveries',
  'requests',
];

/** Back to the seed data; the clock returns to real time (and runs). Faults are kept. */
export function resetState(store: Store): void {
  store.replaced();
  for (const table of DATA) store.exec(`DELETE FROM ${table}`);
  writeDoc(store, buildSeedState(Date.now()));
}

/** A state with nothing in it (a new file) gets the seed data. True when it did. */
export function seedIfEmpty(store: Store): boolean {
  if (store.row('SELECT 1 FROM meta')) return false;
  writeDoc(store, buildSeedState(Date.now()));
  return true;
}

function writeDoc(store: Store, doc: SandboxStateDoc): void {
  const n = doc.nextIds;
  store.exec(
    'INSERT INTO meta (id, clock_offset_ms, clock_frozen_at_ms, next_test_link, next_invitation, next_event, ' +
      'next_email) VALUES (1, ?, ?, ?, ?, ?, ?)',
    doc.clockOffsetMs,
    doc.clockFrozenAtMs,
    n.testLink,
    n.invitation,
    n.event,
    n.email,
  );
  store.replaced(); // the clock and counters are read from the new row
  for (const a of doc.accounts)
    store.exec('INSERT INTO accounts (account_id, doc) VALUES (?, ?)', a.accountId, JSON.stringify(a));
  for (const test of doc.tests) store.changed({ test });
  for (const l of doc.links) store.addLink(l);
  for (const s of doc.settings) store.setSettings(s.testId, s.settings);
  for (const i of doc.invitations) store.addInvitation(i);
}

/** The whole state as one document. */
export function stateDoc(store: Store): SandboxStateDoc {
  const clock = store.clock;
  return {
    clockOffsetMs: clock.offset,
    clockFrozenAtMs: clock.frozenAt,
    nextIds: store.nextIds(),
    accounts: store.accounts(),
    tests: store.tests(),
    links: store.rows('SELECT doc FROM links ORDER BY link_id').map((r) => readRecord('links', r.doc)),
    settings: store.rows('SELECT test_id, doc FROM settings ORDER BY test_id').map((r) => ({
      testId: Number(r.test_id),
      settings: readRecord('settings', r.doc),
    })),
    invitations: store.invitations(),
    callbackQueue: store.callbacks(),
    outbox: store.outbox(),
    requests: store.requests(),
    deliveries: store.deliveries(),
  };
}
