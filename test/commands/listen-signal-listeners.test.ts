// `callbacks listen` in process: SIGINT and SIGTERM reach it only through ctx.signal (runCli's
// handlers), so a run adds no process listener of its own and leaves none behind. (The binary's
// Ctrl-C and SIGTERM behaviour is tested in test/e2e/hostile-listen.test.ts and events.test.ts.)
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { baseEnv, tempDir } from '../helpers/cli.js';
import { memoryProcess } from '../helpers/memory-io.js';
import { waitFor } from '../helpers/wait.js';

describe('callbacks listen, in process', () => {
  it('stops on the signal runCli handles, with no SIGTERM listener of its own', async () => {
    const dir = tempDir();
    const before = { int: process.listeners('SIGINT'), term: process.listenerCount('SIGTERM') };
    const proc = memoryProcess(baseEnv(dir.dir));
    try {
      const run = runCli(['callbacks', 'listen', '--port', '0', '--host', '127.0.0.1'], proc);
      await waitFor(() => proc.err().includes('Ctrl-C stops'), { what: 'the listener to listen' });
      expect(proc.err()).toContain('Listening for notifications on http://127.0.0.1:');
      // listening: runCli's one handler per signal, nothing more
      expect(process.listenerCount('SIGTERM')).toBe(before.term + 1);
      const added = process.listeners('SIGINT').filter((l) => !before.int.includes(l));
      expect(added).toHaveLength(1);
      (added[0] as (signal: NodeJS.Signals) => void)('SIGINT');
      expect(await run).toBe(0); // a listener stopped by Ctrl-C has done its job
      expect(proc.err()).toContain('Stopped; 0 notification(s) received.');
      expect(process.listenerCount('SIGTERM')).toBe(before.term);
      expect(process.listeners('SIGINT')).toEqual(before.int);
    } finally {
      dir.cleanup();
    }
  });
});
