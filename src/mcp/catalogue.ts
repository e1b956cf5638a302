// Which commands `assess mcp` offers as tools, and which of them change something on the service.
// Only the choice lives here: each tool's description, input schema, help and examples are
// derived from the command's own definition (tool-from-command.ts), so they cannot drift.
// Bulk invitations and exports are left out (a tool call is neither resumable nor bounded).

export interface ToolEntry {
  /** The command's path: ['tests', 'list'], or ['invite'] for a noun that is itself a command. */
  path: readonly string[];
  /** Changes something on the service: refused unless `assess mcp --allow-writes`; takes `dryRun`. */
  writes?: boolean;
  /** Keys of the command's schema a tool does not take (bulk modes, terminal drawing, its own dry run). */
  omit?: readonly string[];
  /**
   * Where a file goes (`key`) when the call asks for one (`when`): defaulted to the server's own
   * directory, not wherever the assistant started it; the tool's answer names the file written.
   */
  fileOutput?: { key: string; when: string };
}

export const TOOLS: readonly ToolEntry[] = [
  { path: ['tests', 'list'] },
  { path: ['tests', 'get'] },
  { path: ['links', 'list'] },
  { path: ['links', 'get'] },
  { path: ['links', 'create'], writes: true },
  { path: ['links', 'update'], writes: true },
  {
    path: ['invite'],
    writes: true,
    omit: ['csvFile', 'fromCsv', 'skipInvalid', 'concurrency', 'rate', 'dryRun', 'journal', 'results'],
  },
  { path: ['attempts', 'list'] },
  { path: ['attempts', 'cancel'], writes: true },
  { path: ['reattempt'], writes: true },
  { path: ['report'], omit: ['ascii'], fileOutput: { key: 'output', when: 'pdf' } },
  { path: ['report', 'stats'], omit: ['ascii'] },
  { path: ['settings', 'get'] },
  { path: ['settings', 'set'], writes: true, omit: ['dryRun'] },
  { path: ['callbacks', 'process'], writes: true },
  { path: ['timezones'] },
];

/** `tests_list`, `invite`: MCP tool names allow letters, digits, `_` and `-`. */
export const toolName = (path: readonly string[]): string => path.join('_');

export const WRITE_TOOLS: readonly string[] = TOOLS.filter((t) => t.writes).map((t) => toolName(t.path));
