// zod compiles a parser of its own for each object schema (`new Function`) on the schema's first
// parse: ~0.3–0.6 ms a schema, which V8's code cache cannot keep, repaid only by a schema parsed
// many times. A command parses its flags once and, mostly, one answer: those parses skip the
// compiled fast path (zod's documented `jitless` parse option; the same result, read by zod's
// general path). What is parsed thousands of times keeps it: the rows of a bulk file, and the
// sandbox's requests. (A bulk run's answers are read this way too, through the one reader:
// ~3 µs more each, after the next request has gone out.)
export const PARSE_ONCE = { jitless: true } as const;
