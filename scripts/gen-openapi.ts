// Writes docs/openapi.json: the OpenAPI 3.1 document of the operations the sandbox serves,
// generated from the zod wire schemas (src/sandbox/openapi/). Run through tsx: `npm run openapi`.
//
//   tsx scripts/gen-openapi.ts           write docs/openapi.json
//   tsx scripts/gen-openapi.ts --check   exit 1 when docs/openapi.json is out of date
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openApiFileText } from '../src/sandbox/openapi/index.js';

const target = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));
const fresh = openApiFileText();
if (process.argv.includes('--check')) {
  const current = existsSync(target) ? readFileSync(target, 'utf8') : '';
  if (current !== fresh) {
    console.error('docs/openapi.json is out of date; regenerate it with `npm run openapi` and commit it.');
    process.exit(1);
  }
  console.log('docs/openapi.json is up to date.');
} else {
  writeFileSync(target, fresh);
  console.log(`wrote docs/openapi.json (${Object.keys(JSON.parse(fresh).paths).length} paths)`);
}
