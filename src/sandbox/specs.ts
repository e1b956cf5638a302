// The sandbox's cheap entry: what a command reads before any sandbox runs (the fault, delivery
// fault and rate-limit specs its flags take, and durations), without the server, the store or
// fastify. The server's entry is index.ts.
export { FaultSpecError, parseFaultSpec, parseLatency, type FaultSpec } from './fault-spec.js';
export { parseDeliveryFaultSpec, type DeliveryFaultSpec } from './delivery-fault-spec.js';
export { formatRateLimit, parseRateLimit, type RateLimitSpec } from './rate-limit.js';
export { parseDuration } from './clock.js';
export type { FaultCounters } from './faults.js';
