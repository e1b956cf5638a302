// The MCP tools are derived from the command definitions (src/mcp/tool-from-command.ts): every
// property is a key the command's schema validates, with its --help text; enums come from the
// schema; examples come from the command's examples; bulk keys are left out.
import { describe, expect, it } from 'vitest';
import { TOOLS, WRITE_TOOLS } from '../../src/mcp/catalogue.js';
import { deriveTools } from '../../src/mcp/tool-from-command.js';
import { allowedWrites } from '../../src/mcp/server.js';

const tools = await deriveTools(TOOLS);

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
          expect(tool.entry.writes).toBe(true);
          continue;
        }
        expect(keys, key).toContain(key);
        expect(prop.description, key).toMatch(/\(CLI: (--|<)/);
        expect(tool.entry.omit ?? [], key).not.toContain(key);
      }
      for (const r of tool.inputSchema.required ?? []) expect(Object.keys(tool.inputSchema.properties)).toContain(r);
      expect('dryRun' in tool.inputSchema.properties).toBe(tool.entry.writes === true);
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
    expect(cb.state.enum).toEqual(['completed', 'cancelled', 'expired']); // a set checked in code: registered { completion }
    expect(cb.ids.type).toBe('array');
    const stats = tools.find((t) => t.name === 'report_stats')!.inputSchema.properties;
    expect(stats.ascii).toBeUndefined();
    const list = tools.find((t) => t.name === 'tests_list')!.inputSchema.properties;
    expect(list.pageSize).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
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
