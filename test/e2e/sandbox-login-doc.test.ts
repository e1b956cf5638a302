// docs/sandbox.md, "Logging in to the sandbox": its recipe runs as written against a sandbox of
// this test's own (its port for the recipe's 4010; the `sandbox start` line is the test's sandbox).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runAssess, tempDir } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let s: TestSandbox;
beforeAll(async () => {
  s = await startTestSandbox();
});
afterAll(() => s?.close());

/** The shell lines of the section's first code block, comments off. */
function recipe(doc: string, heading: string): string[] {
  const section = doc.split(`### ${heading}\n`)[1]?.split(/\n#{2,3} /)[0] ?? '';
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
}

describe('docs: logging in to the sandbox', () => {
  it('the recipe logs in to a profile of its own, and commands of that profile reach the sandbox', async () => {
    const lines = recipe(readFileSync(join(ROOT, 'docs/sandbox.md'), 'utf8'), 'Logging in to the sandbox');
    expect(lines[0]).toMatch(/^assess sandbox start --port 4010$/);
    const port = new URL(s.sb.baseUrl).port;
    const cfg = tempDir();
    const env = { ASSESS_API_KEY: undefined, ASSESS_BASE_URL: undefined };
    for (const line of lines.slice(1)) {
      const piped = /^printf %s (\S+) \| (.*)$/.exec(line);
      const words = (piped ? piped[2]! : line).replaceAll('4010', port).split(/\s+/);
      expect(words[0]).toBe('assess');
      const r = await runAssess(words.slice(1), { configDir: cfg.dir, env, stdin: piped?.[1] ?? '' });
      expect(r.code, `${line}: ${r.stderr}`).toBe(0);
      if (words.includes('list')) expect(r.stdout).toMatch(/^1001\tJava Backend Developer/m);
    }
    cfg.cleanup();
    expect(lines.some((l) => l.includes('auth login --profile sandbox'))).toBe(true);
  });
});
