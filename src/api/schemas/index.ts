// Entry for the shared wire schemas: everything of v3 plus the parse helpers.
export * from './v3.js';
export { parseWith, issueMessages, type Parsed } from './parse.js';
export { IdParam, isEmail, toUtcSeconds, isRealDateTime, unwrapResult, normaliseSectionId } from './common.js';
