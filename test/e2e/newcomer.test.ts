// What a newcomer sees first, through the built binary.
import { describe, expect, it } from 'vitest';
import { spawnAssess } from '../helpers/spawn.js';

describe('sandbox serve', () => {
  it('says which account each seed key opens', async () => {
    const p = spawnAssess(['sandbox', 'serve', '--port', '0']);
    try {
      const lines = await p.waitForLines(5);
      expect(lines.join('\n')).toMatch(
        /key 1 +\S+ +\(account 1: Acme Hiring\)\n +key 2 +\S+ +\(account 2: Globex Corp\)/,
      );
    } finally {
      p.child.kill('SIGINT');
      await p.done;
    }
  });
});
