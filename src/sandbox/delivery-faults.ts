// Injected faults of callback *delivery* (the receiver's side), so a client's "never miss a
// completion" tooling (inbox, reconcile, replay) can be tested against lost notifications. The
// spec's grammar is src/sandbox/delivery-fault-spec.ts. Changeable at run time:
// POST/GET/DELETE /_sandbox/delivery-faults.
import { randomInt } from 'node:crypto';
import { seededRandom } from './fault-spec.js';
import { inMemory, type Kept } from './kept.js';
import { seededState } from './stored.js';
import {
  formatDeliveryFaultSpec,
  parseDeliveryFaultSpec,
  type DeliveryFaultCounters,
  type DeliveryFaultSpec,
} from './delivery-fault-spec.js';

export type TryFault = '5xx' | 'hang' | null;

interface DeliveryFaultState {
  spec: DeliveryFaultSpec;
  draws: number;
  counters: DeliveryFaultCounters;
}
/** How the delivery faults kept in the state are read back. */
export const KEPT_DELIVERY_FAULTS = seededState<DeliveryFaultState>();

/** The delivery faults: spec, seeded PRNG, counters; kept in the sandbox's state as the API faults are. */
export class DeliveryFaults {
  constructor(
    spec?: DeliveryFaultSpec | string | null,
    private readonly kept: Kept<DeliveryFaultState> = inMemory(),
  ) {
    if (spec !== undefined) this.set(spec);
  }

  private static zero(): DeliveryFaultCounters {
    return { notifications: 0, tries: 0, dropped: 0, error5xx: 0, hung: 0 };
  }

  set(spec: DeliveryFaultSpec | string | null): void {
    const s = typeof spec === 'string' ? parseDeliveryFaultSpec(spec) : spec;
    if (!s || !(s.drop || s.error5xx || s.hang)) return this.kept.set(undefined);
    this.kept.set({ spec: { ...s, seed: s.seed ?? randomInt(2 ** 31) }, draws: 0, counters: DeliveryFaults.zero() });
  }

  /** Resolves once a change of the spec has committed. */
  saved(): Promise<void> {
    return this.kept.saved();
  }

  /** Whether this notification is lost altogether (one draw per notification). */
  dropNotification(): boolean {
    return this.draw((state, r) => {
      state.counters.notifications++;
      const lost = r < (state.spec.drop ?? 0);
      if (lost) state.counters.dropped++;
      return lost;
    }, false);
  }

  /** The fate of one try (one draw per try). */
  tryFault(): TryFault {
    return this.draw<TryFault>((state, r) => {
      const c = state.counters;
      c.tries++;
      const e = state.spec.error5xx ?? 0;
      if (r < e) return (c.error5xx++, '5xx');
      if (r < e + (state.spec.hang ?? 0)) return (c.hung++, 'hang');
      return null;
    }, null);
  }

  view(): { spec: string | null; counters: DeliveryFaultCounters } {
    const state = this.kept.get();
    return {
      spec: state ? formatDeliveryFaultSpec(state.spec) : null,
      counters: state?.counters ?? DeliveryFaults.zero(),
    };
  }

  /** One draw of the kept sequence, its counters changed by `fn`; `none` without faults. */
  private draw<T>(fn: (state: DeliveryFaultState, r: number) => T, none: T): T {
    const state = this.kept.get();
    if (!state) return none;
    const out = fn(state, seededRandom(state.spec.seed!, state.draws)());
    this.kept.set({ ...state, draws: state.draws + 1 });
    return out;
  }
}
