// A file naming a pid but no start time (temp files, locks of an older assess) is judged by when
// it was written: pids wrap (32,768 on many systems), and a process that started after the file
// was written cannot be the one that wrote it.
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { processAlive, processStartedAt } from '../../src/util/process-alive.js';

const other = spawn('sleep', ['60'], { stdio: 'ignore' });
afterAll(() => other.kill('SIGKILL'));

describe('processAlive', () => {
  it('a live pid with no start time is its own when the file was written after it started', () => {
    expect(processAlive(other.pid!)).toBe(true);
    expect(processAlive(other.pid!, undefined, Date.now() + 5_000)).toBe(true);
  });

  it('a live pid is a stranger when it started after the file was written, or at another time', () => {
    expect(processAlive(other.pid!, undefined, Date.now() - 3_600_000)).toBe(false);
    expect(processAlive(other.pid!, '1')).toBe(false);
    expect(processAlive(other.pid!, processStartedAt(other.pid!))).toBe(true);
  });
});
