// The sandbox's fault spec (parse, errors, canonical text) and its seeded PRNG: the same seed
// must give the same faults in the same order, so a chaos run can be repeated.
import { describe, expect, it } from 'vitest';
import { FaultInjector } from '../../src/sandbox/faults.js';
import { faultSpecFromObject, formatFaultSpec, parseFaultSpec, seededRandom } from '../../src/sandbox/fault-spec.js';

describe('fault spec', () => {
  it('parses the documented example', () => {
    const s = parseFaultSpec('5xx=0.1,429=0.05,reset=0.05,latency=5ms..50ms,seed=42');
    expect(s.errors![500]).toBeCloseTo(0.1 / 3);
    expect(Object.keys(s.errors!)).toEqual(['500', '502', '503']);
    expect(s).toMatchObject({ tooManyRequests: 0.05, reset: 0.05, latencyMs: [5, 50], seed: 42 });
    expect(formatFaultSpec(s)).toBe('5xx=0.1,429=0.05,reset=0.05,latency=5ms..50ms,seed=42');
  });

  it.each([
    ['latency=5ms', { latencyMs: 5 }],
    ['latency=0.2s', { latencyMs: 200 }],
    ['latency=2-10ms', { latencyMs: [2, 10] }],
    ['latency=5..50ms', { latencyMs: [5, 50] }],
    ['502=0.05, 503=5%', { errors: { 502: 0.05, 503: 0.05 } }],
    ['reset=0.1,after=0.25', { reset: 0.1, after: 0.25 }],
    ['429=0.1,retryAfter=2', { tooManyRequests: 0.1, retryAfterS: 2 }],
    ['RESET=.2', { reset: 0.2 }],
    ['truncate=0.02', { truncate: 0.02 }],
    ['', {}],
    ['off', {}],
  ])('%s', (text, expected) => {
    expect(parseFaultSpec(text)).toEqual(expected);
  });

  it('round-trips single codes, after and retryAfter through the canonical text', () => {
    const text = '502=0.05,503=0.02,429=0.01,reset=0.04,truncate=0.03,after=0.3,retryAfter=0.5,seed=7';
    expect(formatFaultSpec(parseFaultSpec(text))).toBe(text);
  });

  it.each([
    ['5xx=2', /5xx=2: must be a probability from 0 to 1/],
    ['5xx=-0.1', /must be a probability/],
    ['reset=lots', /reset=lots: must be a probability/],
    ['timeout=0.1', /unknown fault 'timeout'; known keys: 5xx/],
    ['reset', /'reset' is not key=value/],
    ['latency=fast', /latency: 'fast' is not a latency/],
    ['latency=50..5ms', /upper bound/],
    ['seed=abc', /seed=abc: must be a whole number/],
    ['seed=99999999999', /seed=/],
    ['retryAfter=soon', /retryAfter=soon: must be seconds/],
    ['reset=0.1,reset=0.2', /reset is given twice/],
    ['5xx=0.6,reset=0.6', /add up to 1.2; at most 1/],
  ])('refuses %s', (text, message) => {
    expect(() => parseFaultSpec(text)).toThrow(message);
  });

  it('takes the same pairs as a JSON object', () => {
    expect(faultSpecFromObject({ '5xx': 0.3, latency: '5ms', seed: 1 })).toEqual(
      parseFaultSpec('5xx=0.3,latency=5ms,seed=1'),
    );
    expect(() => faultSpecFromObject({ reset: { p: 1 } })).toThrow(/reset: must be a number or a string/);
  });
});

describe('seeded PRNG', () => {
  it('gives the same sequence for the same seed and another for another seed', () => {
    const take = (seed: number) => Array.from({ length: 1000 }, seededRandom(seed));
    expect(take(42)).toEqual(take(42));
    expect(take(42)).not.toEqual(take(43));
    expect(take(42).every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it('a fault injector with a seed decides the same fate for the n-th request every time', () => {
    const fates = (spec: string) => {
      const f = new FaultInjector(spec);
      return Array.from({ length: 2000 }, () => f.decide());
    };
    const spec = '5xx=0.1,429=0.05,reset=0.05,latency=1ms..9ms,seed=42';
    expect(fates(spec)).toEqual(fates(spec));
    expect(fates(spec)).not.toEqual(fates(spec.replace('seed=42', 'seed=41')));
  });

  it('injects each kind at about its chance, splits 5xx and resets before/after, and keeps 429 before', () => {
    const f = new FaultInjector('5xx=0.15,429=0.05,reset=0.1,after=0.5,seed=9');
    for (let i = 0; i < 20_000; i++) f.decide();
    const { counters } = f.view();
    const n = (k: string) => (counters.injected[k]?.before ?? 0) + (counters.injected[k]?.after ?? 0);
    expect(counters.requests).toBe(20_000);
    expect(n('500') + n('502') + n('503')).toBeGreaterThan(2700); // 3,000 expected
    expect(n('500') + n('502') + n('503')).toBeLessThan(3300);
    expect(n('429')).toBeGreaterThan(850);
    expect(n('429')).toBeLessThan(1150);
    expect(counters.injected['429']!.after).toBe(0);
    expect(counters.injected.reset!.after).toBeGreaterThan(800);
    expect(counters.injected.reset!.before).toBeGreaterThan(800);
    expect(counters.total).toBe(n('500') + n('502') + n('503') + n('429') + n('reset'));
  });

  it('a truncated answer is always after the handler (there must be an answer to cut)', () => {
    const f = new FaultInjector('truncate=0.5,after=0,seed=4');
    for (let i = 0; i < 1000; i++) f.decide();
    expect(f.view().counters.injected.truncate!.before).toBe(0);
    expect(f.view().counters.injected.truncate!.after).toBeGreaterThan(400);
  });

  it('without a seed picks one and shows it, so the run can be repeated', () => {
    const f = new FaultInjector('reset=0.5');
    const seed = /seed=(\d+)/.exec(f.view().spec!)![1];
    const again = new FaultInjector(`reset=0.5,seed=${seed}`);
    const a = Array.from({ length: 50 }, () => f.decide());
    expect(Array.from({ length: 50 }, () => again.decide())).toEqual(a);
  });

  it('an empty spec switches faults off', () => {
    expect(new FaultInjector('').active).toBe(false);
    expect(new FaultInjector('latency=0ms').active).toBe(false);
    expect(new FaultInjector('latency=1ms').active).toBe(true);
  });
});
