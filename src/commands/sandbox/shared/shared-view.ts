// What `sandbox start` and `sandbox status` print about the shared sandbox.
import type { SharedSandbox } from '../../../cli/shared-sandbox.js';
import type { Context } from '../../../context.js';
import { Printer, type Column } from '../../../output/printer.js';

export const SHARED_FIELDS = [
  'running',
  'pid',
  'baseUrl',
  'baseUrlV2',
  'keys',
  'stateFile',
  'logFile',
  'startedAt',
  'answering',
  'starting',
];

/** `starting`: a `sandbox start` is bringing it up (its URL is not known yet). */
export type SharedView = Partial<SharedSandbox> & { running: boolean; answering?: boolean; starting?: boolean };

export async function printShared(ctx: Context, given: SharedView): Promise<void> {
  // one order for every form; what is unknown (not running) is left out
  const view = Object.fromEntries(
    SHARED_FIELDS.map((k) => [k, given[k as keyof SharedView]]).filter(([, v]) => v !== undefined),
  ) as SharedView;
  const fields: Array<Column<SharedView>> = [
    { key: 'running', header: 'Running', value: (r) => (r.running ? 'yes' : 'no') },
    { key: 'baseUrl', header: 'Base URL' },
    { key: 'keys', header: 'Keys', value: (r) => (r.keys ?? []).map((k, i) => `${k} (account ${i + 1})`).join(', ') },
    { key: 'pid', header: 'Pid' },
    { key: 'starting', header: 'Starting', value: (r) => (r.starting ? 'yes' : 'no') },
    { key: 'answering', header: 'Answering', value: (r) => (r.answering ? 'yes' : 'no') },
    { key: 'stateFile', header: 'State' },
    { key: 'logFile', header: 'Log' },
    { key: 'startedAt', header: 'Started', kind: 'date' },
  ];
  await new Printer(ctx).object(view, { fields: fields.filter((f) => f.key in view) });
}

/** Whether the sandbox at this URL answers its control API (a pid can be reused after a reboot). */
export async function answers(baseUrl: string, signal: AbortSignal): Promise<boolean> {
  try {
    const res = await fetch(`${baseUrl}/_sandbox/clock`, {
      signal: AbortSignal.any([signal, AbortSignal.timeout(3000)]),
    });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}
