// Which commands `assess mcp` offers as tools, what each does to the service's data, and which of
// their keys name files. Only the choice lives here: each tool's description, input schema, help
// and examples are derived from the command's own definition (tool-from-command.ts), so they
// cannot drift. Bulk invitations and exports are left out (a tool call is neither resumable nor
// bounded).

export interface ToolEntry {
  /** The command's path: ['tests', 'list'], or ['invite'] for a noun that is itself a command. */
  path: readonly string[];
  /**
   * What it does to the service's data, when it does something: `adds` (an invitation, a link, a
   * notification sent again) or `changes` what is there (cancels, updates, reopens: the MCP
   * annotations' destructiveHint). Either is refused unless `assess mcp --allow-writes`; takes `dryRun`.
   */
  writes?: 'adds' | 'changes';
  /** A second call with the same arguments changes nothing more (the annotations' idempotentHint). */
  idempotent?: boolean;
  /** Keys of the command's schema a tool does not take (bulk modes, terminal drawing, its own dry run). */
  omit?: readonly string[];
  /**
   * Keys naming a file the command reads: in a tool, a name inside the server's files folder, or the
   * content inline as `<key>Content` (never a path elsewhere).
   */
  fileInputs?: readonly string[];
  /**
   * A file the command writes (`key`) when the call asks for one (`when`): always a new file of the
   * server's files folder, named after the input (`name`, e.g. report-900001.pdf), never one that
   * exists; the tool's answer names it.
   */
  fileOutput?: { key: string; when: string; name: (input: Record<string, unknown>) => string };
}

export const TOOLS: readonly ToolEntry[] = [
  { path: ['tests', 'list'] },
  { path: ['tests', 'get'] },
  { path: ['links', 'list'] },
  { path: ['links', 'get'] },
  { path: ['links', 'create'], writes: 'adds' },
  { path: ['links', 'update'], writes: 'changes', idempotent: true },
  {
    path: ['invite'],
    writes: 'adds',
    omit: ['csvFile', 'fromCsv', 'skipInvalid', 'concurrency', 'rate', 'dryRun', 'journal', 'results'],
  },
  { path: ['attempts', 'list'] },
  { path: ['attempts', 'cancel'], writes: 'changes', idempotent: true },
  // reopens a pending, cancelled or expired invitation with a new access time (or makes a new one)
  { path: ['reattempt'], writes: 'changes' },
  {
    path: ['report'],
    omit: ['ascii', 'output', 'force'],
    fileOutput: { key: 'output', when: 'pdf', name: (input) => `report-${String(input.invitationId)}.pdf` },
  },
  { path: ['report', 'stats'], omit: ['ascii'] },
  { path: ['settings', 'get'] },
  { path: ['settings', 'set'], writes: 'changes', idempotent: true, omit: ['dryRun'], fileInputs: ['file'] },
  // the service sends the notifications again: each call one more delivery
  { path: ['callbacks', 'process'], writes: 'adds', fileInputs: ['file'] },
  { path: ['timezones'] },
];

/** `tests_list`, `invite`: MCP tool names allow letters, digits, `_` and `-`. */
export const toolName = (path: readonly string[]): string => path.join('_');

export const WRITE_TOOLS: readonly string[] = TOOLS.filter((t) => t.writes).map((t) => toolName(t.path));

/** The MCP annotations of a tool: what it does, told truthfully (clients ask before destructive calls). */
export function annotationsOf(entry: ToolEntry, title: string) {
  return {
    title,
    readOnlyHint: !entry.writes,
    destructiveHint: entry.writes === 'changes',
    idempotentHint: !entry.writes || entry.idempotent === true,
    openWorldHint: true,
  };
}
