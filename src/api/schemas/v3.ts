// The v3 wire format — one set of zod schemas for all 16 endpoints.
// Requests are validated strictly per the spec (the sandbox rejects what the service would);
// responses are lenient (loose objects: unknown fields pass through) so the client survives
// additions by the real service. Where the samples spell a field two ways, requests accept both
// and responses are normalised on read (sectionID → sectionId, {result:{…}} wrappers unwrapped).
export { Id, Flag, ProctoringMode, UtcDateTime, EmailList, TimeZoneId, YesNo } from './common.js';
export * from './enums.js';
export * from './schedule.js';
export * from './tests.js';
export * from './links.js';
export * from './invitations.js';
export * from './reports.js';
export * from './attempts.js';
export * from './settings.js';
export * from './timezones.js';
