// Injected faults of callback *delivery* (the receiver's side), so a client's "never miss a
// completion" tooling (inbox, reconcile, replay) can be tested against lost notifications.
// A spec is text, e.g. "drop=0.1,5xx=0.05,hang=0.02,seed=42":
//   drop=P   the whole notification is lost: nothing is sent, the delivery is recorded failed
//            (what the service does after its 5 tries failed) — one draw per notification
//   5xx=P    a try is answered 503 without reaching the receiver — one draw per try
//   hang=P   a try gets no answer: the sandbox waits the per-try timeout, nothing is sent
//   seed=N   the PRNG's seed (chosen at random when absent, and shown)
// Changeable at run time: POST/GET/DELETE /_sandbox/delivery-faults.
import { randomInt } from 'node:crypto';
import { FaultSpecError, probability as chance, seededRandom } from './fault-spec.js';

export interface DeliveryFaultSpec {
  drop?: number;
  error5xx?: number;
  hang?: number;
  seed?: number;
}

export interface DeliveryFaultCounters {
  notifications: number;
  tries: number;
  dropped: number;
  error5xx: number;
  hung: number;
}

const KNOWN = 'drop, 5xx, hang, seed';

const probability = (key: string, v: string) => chance(key, v, '0.1 or 10%');

/** Parses a delivery fault spec ("" / "off" / "none" = none). Throws FaultSpecError. */
export function parseDeliveryFaultSpec(text: string): DeliveryFaultSpec {
  const spec: DeliveryFaultSpec = {};
  const t = text.trim();
  if (t === '' || /^(off|none)$/i.test(t)) return spec;
  for (const part of t.split(',')) {
    const m = /^\s*(\w+)\s*=\s*(.*?)\s*$/.exec(part);
    if (!m) throw new FaultSpecError(`'${part.trim()}' is not key=value; known keys: ${KNOWN}`);
    const key = m[1]!.toLowerCase();
    const v = m[2]!;
    if (key === 'drop') spec.drop = probability(m[1]!, v);
    else if (key === '5xx') spec.error5xx = probability(m[1]!, v);
    else if (key === 'hang') spec.hang = probability(m[1]!, v);
    else if (key === 'seed') {
      if (!/^\d{1,10}$/.test(v) || Number(v) > 0xffffffff) throw new FaultSpecError(`seed=${v}: must be a whole number from 0 to 4294967295`);
      spec.seed = Number(v);
    } else throw new FaultSpecError(`unknown delivery fault '${m[1]}'; known keys: ${KNOWN}`);
  }
  if ((spec.error5xx ?? 0) + (spec.hang ?? 0) > 1 + 1e-9) throw new FaultSpecError('5xx and hang add up to more than 1');
  return spec;
}

export function formatDeliveryFaultSpec(s: DeliveryFaultSpec): string {
  const parts: string[] = [];
  if (s.drop) parts.push(`drop=${s.drop}`);
  if (s.error5xx) parts.push(`5xx=${s.error5xx}`);
  if (s.hang) parts.push(`hang=${s.hang}`);
  parts.push(`seed=${s.seed}`);
  return parts.join(',');
}

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
