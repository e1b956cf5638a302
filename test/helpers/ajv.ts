// A JSON Schema 2020-12 validator (the dialect of OpenAPI 3.1) with the formats zod emits
// (email, uri, …), for checking generated schemas and real answers against them.
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

// ajv-formats is CommonJS: under Node's ESM the default import is the plugin function itself,
// while its types describe the module object.
const addFormats = ((formats as { default?: unknown }).default ?? formats) as unknown as (ajv: Ajv2020) => Ajv2020;

export function jsonSchemaValidator(): Ajv2020 {
  // strictRequired off: `anyOf: [{required: ['sectionId']}, {required: ['sectionID']}]` names
  // properties declared outside the branch, which is valid JSON Schema.
  return addFormats(new Ajv2020({ strict: true, allowUnionTypes: true, strictRequired: false }));
}
