// The run-end registry that replaced the globalThis symbol between transport.ts and program.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { atRunEnd, runEndHooks } from '../../src/api/lifecycle.js';
import { runCli } from '../../src/cli/program.js';
import { memoryProcess } from '../helpers/memory-io.js';
import { startTestSandbox } from '../helpers/sandbox.js';

describe('run-end hooks', () => {
  it('run once each, last registered first, and one failing does not stop the others', async () => {
    const ran: string[] = [];
    atRunEnd(() => void ran.push('a'));
    atRunEnd(() => {
      throw new Error('boom');
    });
    atRunEnd(async () => {
      await Promise.resolve();
      ran.push('c');
    });
    await runEndHooks();
    await runEndHooks();
    expect(ran).toEqual(['c', 'a']);
  });

  it('an unregistered hook does not run', async () => {
    let ran = false;
    const off = atRunEnd(() => void (ran = true));
    off();
    await runEndHooks();
    expect(ran).toBe(false);
  });

  it('runCli runs them after the command, also when it made requests', async () => {
    const s = await startTestSandbox();
    try {
      let ran = 0;
      atRunEnd(() => void ran++);
      const proc = memoryProcess(s.env);
      // the transport registers its pool's close here too; the run ends, nothing is left behind
      expect(await runCli(['tests', 'get', '1001', '--json'], proc)).toBe(0);
      expect(ran).toBe(1);
      await runEndHooks();
      expect(ran).toBe(1);
    } finally {
      await s.close();
    }
  });
});

describe('dependencies are used through their public entry points', () => {
  it('no source file reaches into a package folder (e.g. undici/lib/…)', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (p.endsWith('.ts') && /['"](undici|fastify|commander|zod|conf|pdfkit)\/(lib|src|dist)\//.test(readFileSync(p, 'utf8'))) offenders.push(p);
      }
    };
    walk(join(import.meta.dirname, '../../src'));
    expect(offenders).toEqual([]);
  });
});
