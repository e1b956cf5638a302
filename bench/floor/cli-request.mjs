// The stack's own floor for a one-request command: the commander program of stack-program.mjs,
// then one undici `request` and the JSON printed. Nothing of ours. bench/latency.mjs bundles it
// like dist/cli.cjs, with undici a bundle apart loaded on the request (as dist/vendor/undici.cjs
// is), and starts it through Node's compile cache. The global Headers is gone before undici loads,
// as src/api/undici.ts has it gone for the load: else Node compiles its own undici too (~7 ms).
import { runStackProgram } from './stack-program.mjs';

runStackProgram(async (testId, issue) => {
  if (issue) throw new Error(issue);
  delete globalThis.Headers;
  const { request } = await import('undici');
  const { body } = await request(new URL(`/v3/tests/${testId}`, process.env.ASSESS_BASE_URL), {
    headers: { 'X-API-KEY': process.env.ASSESS_API_KEY },
  });
  process.stdout.write(`${JSON.stringify(await body.json(), null, 2)}\n`);
});
