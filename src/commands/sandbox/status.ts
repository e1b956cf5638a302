// `assess sandbox status`: whether the shared sandbox of this config dir runs, where, and with which keys.
import { defineCommand } from '../../cli/command.js';
import { SHARED_FIELDS } from './shared/shared-view.js';

export default defineCommand({
  name: 'status',
  description: 'Show whether the shared sandbox (assess sandbox start) runs: its URL, keys, pid, state and log',
  examples: ['assess sandbox status', 'assess sandbox status --json running,baseUrl'],
  jsonFields: SHARED_FIELDS,
  handler: () => import('./status.run.js'),
});
