// The sandbox's OpenAPI document, built once per origin it is asked from (the `servers` entry
// is the address the client used) and kept as text: it depends on nothing that changes at run time.
import { buildOpenApi } from './build.js';

export { buildOpenApi, type OpenApiOptions } from './build.js';

const cache = new Map<string, string>();

/** The document as JSON text. */
export function openApiText(origin: string): string {
  let text = cache.get(origin);
  if (text === undefined) {
    if (cache.size >= 16) cache.clear(); // origins are few (loopback names); bounded anyway
    text = JSON.stringify(buildOpenApi({ serverUrl: origin }));
    cache.set(origin, text);
  }
  return text;
}

/** docs/openapi.json as `npm run openapi` writes it (test/unit/openapi.test.ts checks it is current). */
export function openApiFileText(): string {
  return `${JSON.stringify(buildOpenApi(), null, 2)}\n`;
}
