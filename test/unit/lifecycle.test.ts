// The run's one clean-up registry (ctx.onExit → Runtime.exitHooks, run by runCli): order, once,
// failures contained; and the keep-alive pool, the run's own, closed by it when the run ends.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { readdirSync, readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runExitHooks } from '../../src/cli/exit-hooks.js';
import { runCli } from '../../src/cli/program.js';
import { memoryProcess } from '../helpers/memory-io.js';
import { startTestSandbox } from '../helpers/sandbox.js';

describe('run-end hooks', () => {
  it('run once each, last registered first, and one failing does not stop the others', async () => {
    const ran: string[] = [];
    const hooks = [
      () => void ran.push('a'),
      () => {
        throw new Error('boom');
      },
      async () => {
        await Promise.resolve();
        ran.push('c');
      },
    ];
    await runExitHooks(hooks);
    await runExitHooks(hooks);
    expect(ran).toEqual(['c', 'a']);
  });

  it('runCli closes the keep-alive pool after the command, when it made requests', async () => {
    const s = await startTestSandbox();
    const sockets: Socket[] = [];
    const onConnected = (message: unknown) => void sockets.push((message as { socket: Socket }).socket);
    subscribe('undici:client:connected', onConnected);
    try {
      const proc = memoryProcess(s.env);
      expect(await runCli(['tests', 'get', '1001', '--json'], proc)).toBe(0);
      // the run's clients connected through the pool; the run ended, and no socket is left open
      expect(sockets.length).toBeGreaterThan(0);
      expect(sockets.filter((x) => !x.destroyed)).toEqual([]);
    } finally {
      unsubscribe('undici:client:connected', onConnected);
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
        else if (
          p.endsWith('.ts') &&
          /['"](undici|fastify|commander|zod|conf|pdfkit)\/(lib|src|dist)\//.test(readFileSync(p, 'utf8'))
        )
          offenders.push(p);
      }
    };
    walk(join(import.meta.dirname, '../../src'));
    expect(offenders).toEqual([]);
  });
});
