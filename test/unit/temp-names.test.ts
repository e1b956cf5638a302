// Temp names of atomic output files: a per-process sequence (no node:crypto), so two writers of
// one process never share a name, and every name is one cleanStaleTemps recognises.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanStaleTemps, tempPathFor } from '../../src/files/atomic.js';
import { tempDir } from '../helpers/cli.js';

describe('tempPathFor', () => {
  it('gives every call of one process its own name beside the target', () => {
    const dir = tempDir('assess-temp-names-');
    try {
      const target = join(dir.dir, 'report.pdf');
      const names = Array.from({ length: 1000 }, () => tempPathFor(target));
      expect(new Set(names).size).toBe(names.length);
      for (const n of names) expect(n).toMatch(new RegExp(`^${dir.dir}/\\.report\\.pdf\\.${process.pid}\\.[0-9a-f]{8}\\.part$`));
    } finally {
      dir.cleanup();
    }
  });

  it('names that cleanStaleTemps knows: kept while this process lives', () => {
    const dir = tempDir('assess-temp-names-');
    try {
      const temp = tempPathFor(join(dir.dir, 'a.csv'));
      writeFileSync(temp, 'partial');
      writeFileSync(temp.replace(`.${process.pid}.`, '.999999999.'), 'left by a dead writer');
      expect(cleanStaleTemps(dir.dir)).toBe(1);
    } finally {
      dir.cleanup();
    }
  });
});
