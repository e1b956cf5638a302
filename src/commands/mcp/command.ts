// `assess mcp`: the service's operations as MCP tools over stdio, read-only unless --allow-writes
// (./command.run.ts).
import * as z from 'zod/mini';
import { defineCommand, flag } from '../../cli/command.js';
import { WRITE_TOOLS } from '../../mcp/catalogue.js';
import { manualRef } from '../../util/manuals.js';

export default defineCommand({
  name: 'mcp',
  description: 'Serve the service to AI assistants as MCP tools over stdio (read-only unless --allow-writes)',
  stdin: 'assess mcp (its protocol)',
  examples: [
    `assess mcp                                      # registered with an assistant: see ${manualRef('mcp.md')}`,
    'assess --sandbox mcp                            # against the local sandbox',
    'assess --profile work mcp --allow-writes invite,attempts_cancel',
    'assess mcp --allow-writes                       # every tool that changes data',
    'assess mcp --files ~/assess-files               # where tools read and save files',
  ],
  flags: {
    allowWrites: flag(
      `allow the tools that change data on the service: all of them, or a comma-separated list ` +
        `(${WRITE_TOOLS.join(', ')})`,
      { value: 'tools', optionalValue: true },
      () =>
        z.optional(
          z
            .union([
              z.literal(true),
              z.string().check(z.trim(), z.minLength(1, 'must name tools, e.g. --allow-writes invite')),
            ])
            .register(z.globalRegistry, { completion: { list: WRITE_TOOLS } }),
        ),
    ),
    files: flag(
      'the only folder tools read files from and save them to (made 0700; default mcp-files/ in the config directory)',
      { value: 'dir' },
      () => z.optional(z.string().check(z.minLength(1, 'must name a directory, e.g. --files ~/assess-files'))),
    ),
  },
  handler: () => import('./command.run.js'),
});
