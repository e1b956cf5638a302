// `assess mcp`: the service's operations as Model Context Protocol tools, for AI assistants, over
// stdio. Reads only unless --allow-writes; the server itself is src/mcp/.
import type { Run } from '../../cli/command.js';
import { serveMcp } from '../../mcp/server.js';
import type mcp from './command.js';

export const run: Run<typeof mcp> = async (ctx, input) => {
  await serveMcp(ctx, input);
};
