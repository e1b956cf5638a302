// src/cli/shared-sandbox.ts: one `sandbox start` claims the shared sandbox, however many run at once.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { claimStart, sandboxPaths, type ClaimFiles } from '../../src/cli/shared-sandbox.js';

const MODULE = fileURLToPath(new URL('../../src/cli/shared-sandbox.ts', import.meta.url));
const dirs: string[] = [];
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'assess-claim-'));
  dirs.push(dir);
  mkdirSync(sandboxPaths(dir).dir, { recursive: true });
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('claimStart', () => {
  it('writes the starting record whole, once, and leaves nothing beside it', () => {
    const dir = fresh();
    expect(claimStart(dir)).toBe(true);
    const record = readFileSync(sandboxPaths(dir).record, 'utf8');
    expect(JSON.parse(record)).toMatchObject({ starting: true, pid: process.pid });
    expect(claimStart(dir)).toBe(false);
    expect(readFileSync(sandboxPaths(dir).record, 'utf8')).toBe(record);
    expect(readdirSync(sandboxPaths(dir).dir)).toEqual(['server.json']);
  });

  it('the record is never there half-written, at any step of the claim', () => {
    const dir = fresh();
    const record = sandboxPaths(dir).record;
    // after each file operation, what another start reading the record would see: absent or whole
    const seen: string[] = [];
    const look = () => {
      if (!fs.existsSync(record)) return seen.push('absent');
      const text = readFileSync(record, 'utf8');
      return seen.push(text.endsWith('}\n') ? 'whole' : `partial: ${JSON.stringify(text)}`);
    };
    const watched: ClaimFiles = {
      writeFileSync: (...a: Parameters<typeof fs.writeFileSync>) => (fs.writeFileSync(...a), void look()),
      linkSync: (...a: Parameters<typeof fs.linkSync>) => (fs.linkSync(...a), void look()),
      rmSync: (...a: Parameters<typeof fs.rmSync>) => (fs.rmSync(...a), void look()),
    };
    expect(claimStart(dir, watched)).toBe(true);
    expect(seen).toEqual(['absent', 'whole', 'whole']);
    // a file system without hard links: the whole text in one exclusive create
    const noLinks = fresh();
    const refused = Object.assign(new Error('EPERM'), { code: 'EPERM' });
    const linkless: ClaimFiles = {
      ...fs,
      linkSync: () => {
        throw refused;
      },
    };
    expect(claimStart(noLinks, linkless)).toBe(true);
    expect(JSON.parse(readFileSync(sandboxPaths(noLinks).record, 'utf8'))).toMatchObject({ starting: true });
    expect(claimStart(noLinks, linkless)).toBe(false);
    expect(readdirSync(sandboxPaths(noLinks).dir)).toEqual(['server.json']);
  });

  it('removes the claim a killed start left beside the record', () => {
    const dir = fresh();
    const gone = spawnSync(process.execPath, ['-e', '0']).pid; // a process that has ended
    const left = join(sandboxPaths(dir).dir, `server.json.${gone}.claim`);
    fs.writeFileSync(left, '{"starting":true}\n');
    expect(claimStart(dir)).toBe(true);
    expect(readdirSync(sandboxPaths(dir).dir)).toEqual(['server.json']);
  });

  it('six starts at once: exactly one claims, the others find its record whole', async () => {
    // what start.run.ts does before it starts a server: claim, else read the record (an
    // unreadable one is removed, as stale); the claimant stays up until the others are done, as
    // a start does while its server comes up
    const script = [
      `import { claimStart, lookupSharedSandbox, removeStaleRecord } from ${JSON.stringify(MODULE)};`,
      'const dir = process.argv[1];',
      'let removed = 0;',
      'for (let round = 0; round < 1000; round++) {',
      '  if (claimStart(dir)) {',
      "    console.log(JSON.stringify({ claimed: true, removed })); process.stdin.resume().on('end', () => {});",
      '    break;',
      '  }',
      '  const found = lookupSharedSandbox(dir);',
      "  if (found.kind === 'starting') { console.log(JSON.stringify({ claimed: false, removed })); break; }",
      "  if (found.kind === 'stale') { removed++; removeStaleRecord(dir, found.pid); }",
      '}',
    ].join('\n');
    for (let trial = 0; trial < 3; trial++) {
      const dir = fresh();
      const children = Array.from({ length: 6 }, () =>
        spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, dir], {
          stdio: ['pipe', 'pipe', 'inherit'],
        }),
      );
      const results = await Promise.all(
        children.map(
          (c) =>
            new Promise<{ claimed: boolean; removed: number }>((resolve) =>
              c.stdout.setEncoding('utf8').once('data', (line: string) => resolve(JSON.parse(line))),
            ),
        ),
      );
      for (const c of children) c.stdin.end();
      await Promise.all(children.map((c) => new Promise((r) => (c.exitCode === null ? c.once('exit', r) : r(0)))));
      expect(results.filter((r) => r.claimed)).toHaveLength(1);
      expect(results.map((r) => r.removed)).toEqual([0, 0, 0, 0, 0, 0]);
    }
  });
});
