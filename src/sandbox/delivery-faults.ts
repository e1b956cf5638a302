// Injected faults of callback *delivery* (the receiver's side), so a client's "never miss a
// completion" tooling (inbox, reconcile, replay) can be tested against lost notifications. The
// spec's grammar is src/sandbox/delivery-fault-spec.ts. Changeable at run time:
// POST/GET/DELETE /_sandbox/delivery-faults.
import { randomInt } from 'node:crypto';
import { seededRandom } from './fault-spec.js';
import {
  formatDeliveryFaultSpec,
  parseDeliveryFaultSpec,
  type DeliveryFaultCounters,
  type DeliveryFaultSpec,
} from './delivery-fault-spec.js';

export type TryFault = '5xx' | 'hang' | null;

/** The live delivery fault state: spec, seeded PRNG, counters. */
export class DeliveryFaults {
  private spec: DeliveryFaultSpec | null = null;
  private random: () => number = Math.random;
  counters: DeliveryFaultCounters = DeliveryFaults.zero();

  constructor(spec?: DeliveryFaultSpec | string | null) {
    this.set(spec ?? null);
  }

  private static zero(): DeliveryFaultCounters {
    return { notifications: 0, tries: 0, dropped: 0, error5xx: 0, hung: 0 };
  }

  set(spec: DeliveryFaultSpec | string | null): void {
    const s = typeof spec === 'string' ? parseDeliveryFaultSpec(spec) : spec;
    this.counters = DeliveryFaults.zero();
    if (!s || !(s.drop || s.error5xx || s.hang)) {
      this.spec = null;
      return;
    }
    this.spec = { ...s, seed: s.seed ?? randomInt(2 ** 31) };
    this.random = seededRandom(this.spec.seed!);
  }

  /** Whether this notification is lost altogether (one draw per notification). */
  dropNotification(): boolean {
    if (!this.spec) return false;
    this.counters.notifications++;
    const lost = this.random() < (this.spec.drop ?? 0);
    if (lost) this.counters.dropped++;
    return lost;
  }

  /** The fate of one try (one draw per try). */
  tryFault(): TryFault {
    if (!this.spec) return null;
    this.counters.tries++;
    const r = this.random();
    const e = this.spec.error5xx ?? 0;
    if (r < e) return (this.counters.error5xx++, '5xx');
    if (r < e + (this.spec.hang ?? 0)) return (this.counters.hung++, 'hang');
    return null;
  }

  view(): { spec: string | null; counters: DeliveryFaultCounters } {
    return { spec: this.spec ? formatDeliveryFaultSpec(this.spec) : null, counters: this.counters };
  }
}
