// How the v3 client reads each answer: tolerant schemas built with the policy's blocks, a module
// per noun (v3/), each loaded with the first answer that needs it (catalog.ts). Only what a
// command needs to act is required (a listing's rows, their ids); everything else may be absent,
// null, differently spelled or typed. The strict wire schemas (src/api/schemas/) stay what the
// sandbox answers and the OpenAPI document describes. Import types from here; the client loads
// the schemas through the catalog, so that a command builds only those of its own answers.
export * from './v3/tests.js';
export * from './v3/links.js';
export * from './v3/invitations.js';
export * from './v3/reports.js';
export * from './v3/attempts.js';
export * from './v3/settings.js';
export * from './v3/timezones.js';
