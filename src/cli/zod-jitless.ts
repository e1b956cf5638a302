// zod without its JIT, for the whole program: imported first by program.ts, before any schema
// is built (an object schema decides at construction). zod's JIT compiles a parser per object
// schema with `new Function` on its first parse (and probes `navigator` and `new Function` once),
// which pays back over thousands of parses of one schema; a command parses each of its schemas
// about once, so the compile is all cost: on Node 24, −4 ms of CPU for a usage error, −7 ms for
// a one-request command. Later parses cost ~0.5 µs more (~1 % of the sandbox's busiest route).
// `jitless` is zod's documented setting (`z.config`); the results are the same either way.
import * as z from 'zod';

z.config({ jitless: true });
