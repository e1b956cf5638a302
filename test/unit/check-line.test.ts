// A command line is checked before the context is built (src/cli/command.ts): a usage error
// reads no config, while values that are only missing still wait for the profile and prompts.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function configDir(profile: Record<string, unknown>, mode = 0o600): string {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: profile } }), { mode });
  return dir;
}

describe('the command line, checked before the context', () => {
  it('refuses a bad value without reading the config file', async () => {
    // a key in a file others can read: whatever reads the file warns about it
    const dir = configDir({ apiKey: 'k_checkline_0123456789' }, 0o644);
    const bad = await runInProcess(['tests', 'get', 'abc'], { configDir: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('error: <testId>: must be a positive integer id, e.g. 1001 (got "abc")\n');
    const valid = await runInProcess(['config', 'get', 'output'], { configDir: dir });
    expect(valid.stderr).toMatch(/^warning: .*config\.json/m);
  });

  it('leaves a time zone the profile may supply to the profile', async () => {
    const dir = configDir({ tz: '35' });
    const r = await runInProcess(['reattempt', '900001', '--start', '2026-03-08', '--end', '2026-03-01'], {
      configDir: dir,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: --end: must be after --start (2026-03-08T00:00:00Z) (got "2026-03-01")\n');
  });

  it('names the missing time zone too when no profile supplies one', async () => {
    const dir = configDir({});
    const r = await runInProcess(['reattempt', '900001', '--start', '2026-03-08', '--end', '2026-03-01'], {
      configDir: dir,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --tz: is required, .*; --end: must be after --start/);
  });
});
