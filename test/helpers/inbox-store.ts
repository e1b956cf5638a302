// Reading (and, for fixtures, writing) the callbacks part of a store the way the commands do,
// from a test: each call opens the file, reads, and closes it (a listener may be writing).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Inbox } from '../../src/commands/callbacks/shared/inbox.js';
import type { NotificationRecord } from '../../src/commands/callbacks/shared/inbox-record.js';
import { notifications } from '../../src/commands/callbacks/shared/inbox-read.js';

export type { NotificationRecord };

/** The profile's store under a config dir. */
export const profileStore = (configDir: string, profile = 'default') => join(configDir, 'store', `${profile}.db`);

function withInbox<T>(path: string, fn: (inbox: Inbox) => T, empty: T): T {
  if (!existsSync(path)) return empty;
  const inbox = Inbox.open(path);
  try {
    return fn(inbox);
  } finally {
    inbox.close();
  }
}

/** Every stored notification (quarantined bodies too), in arrival order. */
export const storedNotifications = (path: string): NotificationRecord[] =>
  withInbox(path, (i) => [...notifications(i.store)], []);

/** Notifications acknowledged and not settled yet (the forward queue). */
export const queuedForwards = (path: string): number =>
  withInbox(path, (i) => Number(i.store.sql('SELECT count(*) AS n FROM callbacks_forward').get()!.n), 0);

/** Entries of the delivery log (delivered and dead-lettered). */
export const deliveryLog = (path: string): Array<{ outcome: string; via: string; target: string }> =>
  withInbox(
    path,
    (i) =>
      i.store
        .sql('SELECT outcome, via, target FROM callbacks_delivery ORDER BY seq')
        .all()
        .map((r) => ({ outcome: String(r.outcome), via: String(r.via), target: String(r.target) })),
    [],
  );
