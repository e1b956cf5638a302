// One request of `callbacks process` (at most 100 ids), as `callbacks process` and
// `callbacks reconcile --apply` send it: each id's result, a 401 naming some ids taken per id.
import { ApiError } from '../../../api/errors.js';
import type { V3Client } from '../../../api/v3.js';
import { idsNamedIn } from '../../shared/invitation-ids.js';

export type CallbackResult = {
  testInvitationId: number | string;
  status: 'successful' | 'failed';
  message: string | null;
};

/** The message of an id the service listed as failed (it gives no reason of its own). */
export const SERVICE_FAILED = 'reported as failed by the service';

const wire = (id: string): number | string => (Number.isSafeInteger(Number(id)) ? Number(id) : id);

/**
 * One chunk. A 401 naming ids of the chunk marks those ids failed (with the service's message)
 * and sends the rest of the chunk again; a 401 naming none of them (e.g. a refused key) stops.
 */
export async function processChunk(client: V3Client, ids: string[]): Promise<CallbackResult[]> {
  const byId = new Map<string, CallbackResult>();
  const record = (id: string, status: CallbackResult['status'], message: string | null) =>
    byId.set(id, { testInvitationId: wire(id), status, message });
  const inOrder = () => ids.map((id) => byId.get(id)!);
  let pending = ids;
  while (pending.length) {
    try {
      const res = await client.processCallbacks(pending);
      // An answer that lists neither (e.g. an empty 200) is taken as "queued": the call succeeded.
      const lists = res.testinvitationIds;
      const silent = !lists || (lists.successful == null && lists.failed == null);
      const ok = new Set((silent ? pending : (lists.successful ?? [])).map(String));
      const bad = new Set((lists?.failed ?? []).map(String));
      for (const id of pending) {
        if (ok.has(id)) record(id, 'successful', null);
        else if (bad.has(id)) record(id, 'failed', SERVICE_FAILED);
        else record(id, 'failed', 'not in the service response');
      }
      return inOrder();
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 401) throw err;
      const { ids: named, message } = idsNamedIn(err.messages, pending);
      if (!named.length) throw err;
      for (const id of named) record(id, 'failed', message);
      pending = pending.filter((id) => !named.includes(id));
    }
  }
  return inOrder();
}
