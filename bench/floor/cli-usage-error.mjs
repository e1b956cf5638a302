// The stack's own floor for a command that sends nothing: the commander program of
// stack-program.mjs, the usage error on stderr and exit 2. Nothing of ours. bench/latency.mjs
// bundles it like dist/cli.cjs (CommonJS, whitespace and syntax minified) and starts it through
// Node's compile cache, like bin/assess.cjs.
import { runStackProgram } from './stack-program.mjs';

runStackProgram((testId, issue) => {
  if (!issue) return;
  process.stderr.write(`error: <testId>: ${issue} (got ${JSON.stringify(testId)})\n`);
  process.exitCode = 2;
});
