// vitest runs the files that took longest last time first, from its cache in node_modules/.vite.
// A fresh clone (CI) has no cache, and vitest then orders by file size: the chaos suite (~34 s,
// mostly waiting out retry backoff) could start last and keep the whole run waiting for it.
// These files, the slowest on 2 cores (2026-11-24, slowest first), go first whatever the cache
// says, so the run ends on short files; the rest keep vitest's order.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const SLOWEST = [
  'test/e2e/chaos.test.ts',
  'test/e2e/standalone.test.ts', // ~25 s of postject injecting the SEA blob into a 120 MB Node
  'test/e2e/examples-2.test.ts',
  'test/e2e/crash.test.ts',
  'test/e2e/bulk-rate-limit.test.ts', // ~35 s: rows at 20–50/s under the sandbox's rate limit
  'test/commands/completion-shells.test.ts', // ~15 s: fish completing every argument of every command
  'test/e2e/compile-cache.test.ts',
  'test/e2e/quirks.test.ts',
  'test/e2e/hostile-files.test.ts',
  'test/e2e/full-disk.test.ts',
  'test/e2e/secrets.test.ts',
  'test/e2e/secrets-echoed.test.ts', // ~35 s alone: 48 runs of the binary against an echoing service
  'test/commands/hostile-answers.test.ts', // ~20 s alone: every command family against a hostile service
  'test/e2e/hostile-listen.test.ts',
  'test/e2e/completions.test.ts',
  'test/e2e/forward-kill9.test.ts',
  'test/e2e/nightly-recipe.test.ts',
  'test/e2e/hostile-deadline.test.ts',
  'test/e2e/answer-cap.test.ts',
  'test/e2e/examples-1.test.ts',
  'test/e2e/sandbox-shared.test.ts',
  'test/e2e/package-install.test.ts',
  'test/bad-inputs/bad-inputs.test.ts',
  'test/e2e/events-delivery.test.ts',
  'test/e2e/bulk-invite.test.ts',
  'test/e2e/signals.test.ts', // ~12 s: a bulk run hung up and resumed, servers hung up, a closed terminal
  'test/e2e/demo.test.ts',
  'test/e2e/hostile-output.test.ts',
  'test/e2e/hostile-fifo.test.ts',
  'test/e2e/foundation.test.ts',
  'test/e2e/vendor-answers.test.ts',
  'test/e2e/pager.test.ts',
  'test/e2e/lock-identity.test.ts',
  'test/e2e/export.test.ts',
  'test/e2e/journal-kills.test.ts',
  'test/e2e/bulk-summary.test.ts',
  'test/e2e/hints.test.ts',
  'test/e2e/sandbox-state-lock.test.ts',
  'test/e2e/sandbox-serve.test.ts',
  'test/sandbox/state-kill.test.ts',
  'test/e2e/plain-http.test.ts',
  'test/e2e/secret-files.test.ts',
  'test/e2e/listen-secrets.test.ts',
  'test/e2e/mcp.test.ts',
  'test/commands/attempts-wait.test.ts', // ~5 s: polls through failures until a --timeout
  'test/unit/supported-node.test.ts', // ~4 s: Nodes started, a tarball packed and unpacked
];

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = SLOWEST.findIndex((s) => f.moduleId.replaceAll('\\', '/').endsWith(s));
      return i < 0 ? SLOWEST.length : i;
    };
    return sorted.sort((a, b) => rank(a) - rank(b)); // stable: the rest keep vitest's order
  }
}
