// GET /v3/timezones: the time zones invitations and links can use (see src/sandbox/timezones.ts).
import type { FastifyInstance } from 'fastify';
import { SANDBOX_TIME_ZONES } from '../timezones.js';

export function registerTimeZoneRoutes(app: FastifyInstance): void {
  app.get('/v3/timezones', { config: { auth: true, style: 'statusMessage' } }, async () => ({
    timeZones: SANDBOX_TIME_ZONES,
  }));
}
