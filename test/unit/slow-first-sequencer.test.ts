// The sequencer's list names real files (a renamed suite would silently lose its head start).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SLOWEST } from '../slow-first-sequencer.js';
import { ROOT } from '../helpers/cli.js';

describe('slow-first sequencer', () => {
  it('lists only test files that exist, each once', () => {
    expect(SLOWEST.filter((f) => !existsSync(join(ROOT, f)))).toEqual([]);
    expect(new Set(SLOWEST).size).toBe(SLOWEST.length);
  });
});
