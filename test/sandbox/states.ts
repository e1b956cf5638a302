// Drives a fresh invitation into each state the spec's tables start from.
import type { Harness } from './helpers.js';

export const TABLE_STATES = ['Pending', 'Cancelled', 'Expired', 'Complete', 'In Progress', 'Test Left'] as const;
export type TableState = (typeof TABLE_STATES)[number];

export async function driveTo(h: Harness, id: number, state: TableState | 'Terminated'): Promise<void> {
  switch (state) {
    case 'Pending':
      return;
    case 'Cancelled': {
      const r = await h.api('POST', `/v3/invitations/${id}/cancel`);
      if (r.status !== 200) throw new Error(`cancel: ${r.status}`);
      return;
    }
    case 'Expired':
      return void (await h.move(id, 'expire'));
    case 'Complete':
      return void (await h.move(id, 'complete', { score: 70 }));
    case 'In Progress':
      return void (await h.move(id, 'start'));
    case 'Test Left':
      return void (await h.move(id, 'leave'));
    case 'Terminated':
      return void (await h.move(id, 'terminate'));
  }
}
