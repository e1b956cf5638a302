// `assess sandbox stop`: stops the shared sandbox cleanly (SIGTERM: it finishes its requests and
// saves its state), waits until its process is gone, and removes its record.
import { defineCommand } from '../../cli/command.js';

export default defineCommand({
  name: 'stop',
  description: 'Stop the shared sandbox (assess sandbox start); its state is saved for the next start',
  examples: ['assess sandbox stop', 'assess sandbox stop   # its state stays in the config dir for the next start'],
  handler: () => import('./stop.run.js'),
});
