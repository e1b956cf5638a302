// The MCP tools are derived from the command definitions (src/mcp/tool-from-command.ts): every
// property is a key the command's schema validates, with its --help text; enums come from the
// schema; examples come from the command's examples; bulk keys are left out.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { loadNoun } from '../../src/commands/index.js';
import { annotationsOf, TOOLS, WRITE_TOOLS } from '../../src/mcp/catalogue.js';
import { deriveTools } from '../../src/mcp/tool-from-command.js';
import { allowedWrites } from '../../src/mcp/server.js';

const tools = await deriveTools(TOOLS, loadNoun);
const SRC = join(import.meta.dirname, '../../src');

describe('tools from command definitions', () => {
  it.each(tools.map((t) => [t.name, t] as const))(
    '%s: properties are the command’s keys, described, required ones present',
    (_name, tool) => {
      // the command's flags and arguments, which test/unit/command-flags.test.ts holds equal to its schema's keys
      const keys = [
        ...tool.command.options.map((o) => o.attributeName()),
        ...tool.command.registeredArguments.map((a) => a.name()),
      ];
      for (const [key, prop] of Object.entries(tool.inputSchema.properties)) {
        if (key === 'dryRun') {
          expect(tool.entry.writes).toBeDefined();
          continue;
        }
        if (key.endsWith('Content')) {
          expect(tool.entry.fileInputs ?? []).toContain(key.slice(0, -'Content'.length));
          continue;
        }
        expect(keys, key).toContain(key);
        expect(prop.description, key).toMatch(/\(CLI: (--|<)/);
        expect(tool.entry.omit ?? [], key).not.toContain(key);
      }
      for (const r of tool.inputSchema.required ?? []) expect(Object.keys(tool.inputSchema.properties)).toContain(r);
      expect('dryRun' in tool.inputSchema.properties).toBe(tool.entry.writes !== undefined);
      expect(tool.description.startsWith(tool.def.description)).toBe(true);
    },
  );

  it('invite takes one candidate: none of the bulk keys', () => {
    const invite = tools.find((t) => t.name === 'invite')!.inputSchema.properties;
    for (const key of ['fromCsv', 'csvFile', 'skipInvalid', 'concurrency', 'rate', 'journal', 'results'])
      expect(invite[key], key).toBeUndefined();
    expect(invite.email).toBeDefined();
  });

  it('reads enums and examples off the schema and the examples', () => {
    const links = tools.find((t) => t.name === 'links_create')!.inputSchema.properties;
    expect(links.type.enum).toEqual(['email', 'open']);
    expect(links.proctoring.enum).toEqual(['disabled', 'image', 'video']);
    const cb = tools.find((t) => t.name === 'callbacks_process')!.inputSchema.properties;
    // a set checked in code: registered { completion }
    expect(cb.state.enum).toEqual(['completed', 'cancelled', 'expired']);
    expect(cb.ids.type).toBe('array');
    const stats = tools.find((t) => t.name === 'report_stats')!.inputSchema.properties;
    expect(stats.ascii).toBeUndefined();
    const list = tools.find((t) => t.name === 'tests_list')!.inputSchema.properties;
    expect(list.pageSize).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
  });

  it('no tool takes an output format: the answer is always JSON', () => {
    const formats = ['csv', 'json', 'ndjson', 'tsv', 'table', 'plain', 'fields', 'query', 'format', 'pager', 'color'];
    for (const tool of tools)
      for (const key of Object.keys(tool.inputSchema.properties))
        expect(formats, `${tool.name}.${key}`).not.toContain(key.toLowerCase());
    expect(tools.find((t) => t.name === 'invite')!.inputSchema.properties.csv).toBeUndefined();
  });

  it('a key that names a file is a name in the files folder (or inline content), never a path to write', () => {
    for (const tool of tools) {
      const fileKeys = tool.command.options
        .filter((o) => /<(file|dir|path)>/.test(o.flags) && o.attributeName() in tool.inputSchema.properties)
        .map((o) => o.attributeName());
      expect(fileKeys, tool.name).toEqual([...(tool.entry.fileInputs ?? [])]);
      for (const key of fileKeys) expect(tool.inputSchema.properties[`${key}Content`], tool.name).toBeDefined();
    }
    const report = tools.find((t) => t.name === 'report')!.inputSchema.properties;
    expect([report.output, report.force]).toEqual([undefined, undefined]);
  });

  it('annotations: destructive only what cancels or updates; reads read-only and idempotent', () => {
    const hints = Object.fromEntries(tools.map((t) => [t.name, annotationsOf(t.entry, t.title)]));
    const destructive = Object.keys(hints).filter((n) => hints[n]!.destructiveHint);
    expect(destructive.sort()).toEqual(['attempts_cancel', 'links_update', 'reattempt', 'settings_set']);
    for (const name of ['invite', 'links_create', 'callbacks_process'])
      expect(hints[name], name).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    for (const name of ['tests_list', 'report', 'attempts_list', 'timezones'])
      expect(hints[name], name).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(hints.attempts_cancel).toMatchObject({ readOnlyHint: false, idempotentHint: true });
  });

  it('src/mcp imports no command and does not build clients through src/cli (the catalogue is handed in)', () => {
    const imports: string[] = [];
    for (const f of readdirSync(join(SRC, 'mcp'))) {
      const file = join(SRC, 'mcp', f);
      for (const { fileName: spec } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles)
        if (spec.startsWith('.'))
          imports.push(
            relative(SRC, resolve(dirname(file), spec))
              .split('\\')
              .join('/'),
          );
    }
    expect(imports.filter((i) => i.startsWith('commands/') || i === 'cli/context-factory.js')).toEqual([]);
  });

  it('--allow-writes: all, a list, or a usage error naming the bad name', () => {
    expect([...allowedWrites(undefined)]).toEqual([]);
    expect([...allowedWrites(true)]).toEqual(WRITE_TOOLS);
    expect([...allowedWrites('invite, attempts_cancel')]).toEqual(['invite', 'attempts_cancel']);
    expect(() => allowedWrites('invite,tests_list')).toThrow(
      '--allow-writes: "tests_list" is a tool that only reads (always allowed)',
    );
    expect(() => allowedWrites('invitee')).toThrow('--allow-writes: "invitee" is not a tool');
    expect(() => allowedWrites(',')).toThrow('--allow-writes: names no tool');
  });
});
