import { defineNoun } from '../../cli/command.js';
import clock from './clock.js';
import deliveries from './deliveries.js';
import faults from './faults.js';
import openapi from './openapi.js';
import outbox from './outbox.js';
import quirks from './quirks.js';
import requests from './requests.js';
import reset from './reset.js';
import serve from './serve.js';
import simulate from './simulate.js';
import start from './start.js';
import status from './status.js';
import stop from './stop.js';

export default defineNoun({
  name: 'sandbox',
  description: 'Run and drive the local sandbox: a stateful emulator of the service',
  verbs: [start, status, stop, serve, reset, simulate, clock, requests, outbox, deliveries, faults, quirks, openapi],
});
