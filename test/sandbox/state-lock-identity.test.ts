// Issue 31 item 6: the sandbox's state lock holds by identity: a symlink to a state in use, a
// hard link of it (in another directory) and a relative spelling are the same state, refused.
import { existsSync, linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';

const dir = mkdtempSync(join(tmpdir(), 'assess-state-id-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('one sandbox per state, whatever its name', () => {
  it('a symlink, a hard link and a relative path of a state in use are refused; all free again after close', async () => {
    const file = join(dir, 'state.json');
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(elsewhere);
    await (await startSandbox({ stateFile: file })).close(); // the state exists (a hard link needs a file)
    expect(existsSync(file)).toBe(true);
    symlinkSync(file, join(elsewhere, 'soft.json'));
    const first = await startSandbox({ stateFile: file });
    const names = [join(elsewhere, 'soft.json'), relative(process.cwd(), file)];
    try {
      linkSync(file, join(elsewhere, 'hard.json'));
      names.push(join(elsewhere, 'hard.json'));
      for (const name of names)
        await expect(startSandbox({ stateFile: name }), name).rejects.toThrow(
          `is in use by another sandbox (pid ${process.pid})`,
        );
    } finally {
      await first.close();
    }
    expect(existsSync(join(elsewhere, 'soft.json.lock'))).toBe(false);
    for (const name of names) await (await startSandbox({ stateFile: name })).close();
  });

  it('a sandbox started through a symlink keeps its change log beside the real state file', async () => {
    const file = join(dir, 'real.json');
    const link = join(dir, 'link.json');
    await (await startSandbox({ stateFile: file })).close();
    symlinkSync(file, link);
    const sb = await startSandbox({ stateFile: link });
    try {
      const res = await fetch(`${sb.baseUrl}/v3/tests/1001/invite`, {
        method: 'POST',
        headers: { 'X-API-KEY': sb.keys[0]!, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'via.link@example.com', name: 'Via Link' }),
      });
      expect(res.status).toBe(200);
      expect(existsSync(`${file}.log`)).toBe(true);
      expect(existsSync(`${link}.log`)).toBe(false);
    } finally {
      await sb.close();
    }
  });
});
