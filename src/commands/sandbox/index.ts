import { defineNoun } from '../../cli/command.js';

export default defineNoun({
  name: 'sandbox',
  description: 'Run and drive the local sandbox: a stateful emulator of the service',
  verbs: {
    start: () => import('./start.js'),
    status: () => import('./status.js'),
    stop: () => import('./stop.js'),
    serve: () => import('./serve.js'),
    reset: () => import('./reset.js'),
    simulate: () => import('./simulate.js'),
    clock: () => import('./clock.js'),
    requests: () => import('./requests.js'),
    outbox: () => import('./outbox.js'),
    deliveries: () => import('./deliveries.js'),
    faults: () => import('./faults.js'),
    quirks: () => import('./quirks.js'),
    openapi: () => import('./openapi.js'),
  },
});
