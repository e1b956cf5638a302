// Commands that change the config at once (a script's `auth login … &` per profile) take turns
// on it: every write lands. Before the config's lock, each read the file, changed its copy and
// renamed it into place, so the last renames silently dropped the others' profiles.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runAssess, tempDir } from '../helpers/cli.js';

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('config writes at once', () => {
  it('10 processes each setting a profile: all 10 are stored, and the lock is given back', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const n = 10;
    const runs = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        runAssess(['--profile', `ci${i}`, 'config', 'set', 'base-url', `http://127.0.0.1:${4000 + i}`], {
          configDir: t.dir,
        }),
      ),
    );
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const stored = JSON.parse(readFileSync(join(t.dir, 'config.json'), 'utf8')) as {
      profiles: Record<string, { baseUrl: string }>;
    };
    expect(Object.keys(stored.profiles).sort()).toEqual(Array.from({ length: n }, (_, i) => `ci${i}`).sort());
    for (let i = 0; i < n; i++) expect(stored.profiles[`ci${i}`]!.baseUrl).toBe(`http://127.0.0.1:${4000 + i}`);
    expect(readdirSync(t.dir).sort()).toEqual(['config.json']); // no lock or temp file left behind
    const list = await runAssess(['auth', 'list', '--json'], { configDir: t.dir });
    expect(list.code, list.stderr).toBe(0);
    const names = (JSON.parse(list.stdout) as Array<{ profile: string }>)
      .map((row) => row.profile)
      .filter((p) => p !== 'default');
    expect(names.sort()).toEqual(Object.keys(stored.profiles).sort());
  });
});
