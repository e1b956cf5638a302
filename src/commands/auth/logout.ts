// `assess auth logout`: the stored key of a profile removed (./logout.run.ts).
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  name: 'logout',
  description: 'Remove the stored API key of a profile (other settings stay)',
  examples: ['assess auth logout', 'assess auth logout --profile staging'],
  handler: () => import('./logout.run.js'),
});
