// GET /v3/timezones: the time zones invitations and links can use (see src/sandbox/timezones.ts).
import type { FastifyInstance } from 'fastify';
import { SANDBOX_TIME_ZONES } from '../timezones.js';
import { route } from './operation.js';

export function registerTimeZoneRoutes(app: FastifyInstance): void {
  route(app, 'v3.listTimeZones', async () => ({
    timeZones: SANDBOX_TIME_ZONES,
  }));
}
