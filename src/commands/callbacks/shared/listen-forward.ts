// `callbacks listen --forward-to`: the lanes (shared/forward-lanes.ts) fed from the store's forward
// queue — what an earlier listener left first, then each notification once it is committed —
// with every outcome written back to the store (delivered, a try spent, a dead letter). Without
// a store (--no-inbox) the lanes hold the notifications in memory, bounded by --forward-queue.
import type { Context } from '../../../context.js';
import { policyFrom, sendOnce, type Outgoing } from './delivery-policy.js';
import { ForwardLanes, REAL_CLOCK, type Clock, type LaneStore } from './forward-lanes.js';
import { queuedOne, recordDeadLetter, recordDelivered, recordRetry } from './forward-queue.js';
import type { ListenExtraInput } from './listen-extras.js';
import { label, type ListenStore } from './listen-store.js';
import type { Received } from './receiver.js';
import { FORWARDED_BY, forwardedByValue } from './self-forward.js';
import { plural } from '../../../util/plural.js';

export interface Forwarding {
  lanes: ForwardLanes;
  forward(n: Received): void;
  note: string;
}

const laneOf = (invitationId: string | null, seq: number) => invitationId ?? `#${seq}`;

export function startForwarding(
  ctx: Context,
  input: ListenExtraInput,
  deps: { kept: ListenStore | null; secret?: string; listenerId: string; clock?: Clock },
): Forwarding {
  const to = input.forwardTo!;
  const { kept, listenerId } = deps;
  const clock = deps.clock ?? REAL_CLOCK;
  const policy = policyFrom(input);
  /** The received `assess-forwarded-by` of what is in flight (the loop guard; not kept in the store). */
  const hops = new Map<number, string>();
  /** Bytes of the bodies held in memory (--no-inbox), bounded by --forward-queue-bytes. */
  const memory = { bytes: 0 };
  const lanes = new ForwardLanes({
    policy,
    breaker: { failures: input.breakerFailures, probeMs: input.breakerProbe },
    concurrency: input.forwardConcurrency,
    clock,
    store: kept ? storeSide(ctx, kept, to, hops, listenerId) : memorySide(ctx, to, memory),
    send: (item, signal) =>
      sendOnce({ url: to, secret: deps.secret, timeoutMs: policy.timeoutMs, now: () => ctx.now() }, item, signal),
    onBreaker: (state, why) =>
      state === 'open'
        ? ctx.warn(
            `forwarding to ${to} paused (${why}); notifications stay queued, a probe every ` +
              `${input.breakerProbe / 1000} s`,
          )
        : state === 'closed'
          ? ctx.info(`forwarding to ${to} resumed (${why})`)
          : undefined,
    onError: (err) => ctx.warn(`forwarding to ${to}: ${err instanceof Error ? err.message : String(err)}`),
  });
  for (const e of kept?.resumable ?? [])
    lanes.add({ seq: e.seq, lane: laneOf(e.invitationId, e.seq), tries: e.tries, nextMs: e.nextMs });
  const resumed = kept?.resumable.length ?? 0;
  return {
    lanes,
    forward: forwarder(ctx, input, { lanes, kept, hops, memory, listenerId }),
    note:
      `Forwarding to ${to}: ${plural(input.forwardConcurrency, 'invitation')} at once, each in arrival order; ` +
      `paused after ${plural(input.breakerFailures, 'failure')} in a ` +
      `row.${resumed ? ` ${resumed} queued from before.` : ''}`,
  };
}

/**
 * What queues one received notification: its stored record, or without a store the body in
 * memory (dropped, with a counted warning, when --forward-queue or its bytes are full).
 */
function forwarder(
  ctx: Context,
  input: ListenExtraInput,
  s: {
    lanes: ForwardLanes;
    kept: ListenStore | null;
    hops: Map<number, string>;
    memory: { bytes: number };
    listenerId: string;
  },
): (n: Received) => void {
  const { lanes, kept, hops, memory, listenerId } = s;
  const to = input.forwardTo!;
  let memorySeq = 0;
  let dropped = 0;
  return (n) => {
    const rec = kept?.recordOf(n);
    if (rec) {
      hops.set(rec.seq, forwardedByValue(n.headers?.[FORWARDED_BY], listenerId));
      return lanes.add({ seq: rec.seq, lane: laneOf(rec.invitationId, rec.seq), tries: 0, nextMs: 0 });
    }
    if (kept) return; // not stored: it was answered 503, the service sends it again
    if (lanes.depth >= input.forwardQueue || memory.bytes + n.raw.length > input.forwardQueueBytes) {
      dropped++;
      return ctx.warn(
        `could not forward ${label(n.read.invitationId, n.read.status)} to ${to}: forward queue full ` +
          `(${lanes.depth} waiting, ${Math.ceil(memory.bytes / 1024)} KB); ${dropped} dropped so far`,
      );
    }
    memory.bytes += n.raw.length;
    const seq = ++memorySeq;
    const item: Outgoing = {
      id: `mem_${seq}`,
      invitationId: n.read.invitationId,
      status: n.read.status,
      body: n.raw,
      contentType: n.contentType,
      forwardedBy: forwardedByValue(n.headers?.[FORWARDED_BY], listenerId),
    };
    lanes.add({ seq, lane: laneOf(n.read.invitationId, seq), tries: 0, nextMs: 0, item });
  };
}

function storeSide(
  ctx: Context,
  kept: ListenStore,
  to: string,
  hops: Map<number, string>,
  listenerId: string,
): LaneStore {
  const { inbox } = kept;
  const said = (item: Outgoing) => label(item.invitationId, item.status, item.id);
  const at = () => ctx.now().getTime();
  return {
    load: (e) => queuedItem(kept, e.seq, to, hops.get(e.seq) ?? forwardedByValue(undefined, listenerId)),
    delivered: async (e, item, status) => {
      hops.delete(e.seq);
      await inbox.commit(
        () =>
          recordDelivered(inbox.store, {
            seq: e.seq,
            id: item.id,
            target: to,
            tries: e.tries + 1,
            atMs: at(),
            via: 'forward',
          }),
        { durable: false }, // lost in a power cut, it is sent again: at least once
      );
      ctx.info(`forwarded ${said(item)} to ${to}: HTTP ${status}${e.tries ? ` (try ${e.tries + 1})` : ''}`);
    },
    deadLetter: async (e, item, error) => {
      hops.delete(e.seq);
      await inbox.commit(() =>
        recordDeadLetter(inbox.store, {
          seq: e.seq,
          id: item.id,
          target: to,
          tries: Math.max(1, e.tries),
          atMs: at(),
          error,
        }),
      );
      ctx.warn(
        `could not forward ${said(item)} to ${to} (${plural(Math.max(1, e.tries), 'try', 'tries')}): ${error}; kept ` +
          `as a dead letter (callbacks inbox --failed, callbacks replay)`,
      );
    },
    retryLater: (e, _item, error) =>
      inbox.commit(
        () => recordRetry(inbox.store, { seq: e.seq, target: to, tries: e.tries, nextMs: e.nextMs, error }),
        {
          durable: false,
        },
      ),
  };
}

/** A queued notification as it is sent, read from the store; undefined when it is no longer queued. */
function queuedItem(kept: ListenStore, seq: number, to: string, forwardedBy: string): Outgoing | undefined {
  const rec = queuedOne(kept.inbox.store, seq, to);
  if (!rec) return undefined;
  return {
    seq: rec.seq,
    id: rec.id,
    invitationId: rec.invitationId,
    status: rec.status,
    body: rec.body,
    contentType: rec.headers['content-type'] ?? 'application/json',
    forwardedBy,
  };
}

function memorySide(ctx: Context, to: string, memory: { bytes: number }): LaneStore {
  const said = (item: Outgoing) => label(item.invitationId, item.status);
  return {
    load: (e) => e.item,
    delivered: async (e, item, status) => {
      memory.bytes -= item.body.length;
      ctx.info(`forwarded ${said(item)} to ${to}: HTTP ${status}${e.tries ? ` (try ${e.tries + 1})` : ''}`);
    },
    deadLetter: async (e, item, error) => {
      memory.bytes -= item.body.length;
      ctx.warn(`could not forward ${said(item)} to ${to} (${plural(Math.max(1, e.tries), 'try', 'tries')}): ${error}`);
    },
    retryLater: async () => undefined,
  };
}
