// The grammar of injected faults of callback *delivery* (the receiver's side), parsed and printed.
// Kept apart from the injector (src/sandbox/delivery-faults.ts, which loads node:crypto for its
// seed), as fault-spec.ts is from faults.ts: `sandbox serve` checks a spec before loading it.
// A spec is text, e.g. "drop=0.1,5xx=0.05,hang=0.02,seed=42":
//   drop=P   the whole notification is lost: nothing is sent, the delivery is recorded failed
//            (what the service does after its 5 tries failed) — one draw per notification
//   5xx=P    a try is answered 503 without reaching the receiver — one draw per try
//   hang=P   a try gets no answer: the sandbox waits the per-try timeout, nothing is sent
//   seed=N   the PRNG's seed (chosen at random when absent, and shown)
import { FaultSpecError, probability as chance } from './fault-spec.js';

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
      if (!/^\d{1,10}$/.test(v) || Number(v) > 0xffffffff)
        throw new FaultSpecError(`seed=${v}: must be a whole number from 0 to 4294967295`);
      spec.seed = Number(v);
    } else throw new FaultSpecError(`unknown delivery fault '${m[1]}'; known keys: ${KNOWN}`);
  }
  if ((spec.error5xx ?? 0) + (spec.hang ?? 0) > 1 + 1e-9)
    throw new FaultSpecError('5xx and hang add up to more than 1');
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
