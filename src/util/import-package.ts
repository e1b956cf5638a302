// npm packages loaded on demand that stay outside dist/cli.cjs (scripts/build.mjs EXTERNAL):
// pdfkit reads its font files next to its code; conf (with ajv) and @inquirer/prompts are ES
// modules needed only to write the config or to ask something; undici is a bundle of its own,
// dist/undici.cjs, which dist/main.cjs compiles with its code cache on the first request.
// dist/cli.cjs is compiled through vm.Script (src/cli/load-cli.ts), where V8 drops import()'s
// callback when a code cache is used, so dist/main.cjs hands in its own import(). From src/
// (tests, tsx) this module's import() serves.
type Importer = (specifier: string) => Promise<unknown>;

let importer: Importer = (specifier) => import(specifier);

export function setPackageImporter(fn: Importer): void {
  importer = fn;
}

// pdfkit is CommonJS (`export =`): import() hands it over as the default export
export const importPdfkit = () => importer('pdfkit') as Promise<{ default: typeof import('pdfkit') }>;
export const importConf = () => importer('conf') as Promise<typeof import('conf')>;
export const importPrompts = () => importer('@inquirer/prompts') as Promise<typeof import('@inquirer/prompts')>;
export const importUndici = () => importer('undici') as Promise<typeof import('undici')>;
