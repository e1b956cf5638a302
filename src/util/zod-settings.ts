// zod's settings, made once for every process that builds schemas: imported first by
// src/cli/program.ts, and by the sandbox's server (which also runs as a library:
// tests, the state child). Setting them twice is harmless.
// - The program uses `zod/mini` (functions, not methods): esbuild keeps only the schema kinds and
//   checks used, where the classic API's classes carry every method and so every kind. zod/mini
//   loads no messages of its own: the English ones are set here, as the classic API does on its
//   first schema (else a bad body is answered "Invalid input", not "Invalid input: expected
//   object, received array").
// - No JIT: an object schema compiles a parser with `new Function` on its first parse, which pays
//   back over thousands of parses of one schema; a command parses each of its schemas about once
//   (on Node 24, −4 ms of CPU for a usage error, −7 ms for a one-request command). `jitless` is
//   zod's documented setting; the results are the same either way.
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

z.config(en());
z.config({ jitless: true });
