import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// pdfkit's standard fonts: `require$1('#standard-fonts/Helvetica')`, where require$1 comes from
// createRequire (esbuild cannot follow it), becomes a plain require() of the same module, which
// esbuild bundles (the fonts' metrics are ~200 KB of JavaScript; the .afm files are not read).
// `import('pdfkit')` takes its CommonJS build (js/pdfkit.js) too: the ES module one finds its
// data with import.meta.url, which a CommonJS bundle does not have ("Invalid URL").
const PDFKIT_CJS = createRequire(import.meta.url).resolve('pdfkit');
export const pdfkitFonts = {
  name: 'pdfkit-fonts',
  setup: (b) => {
    b.onResolve({ filter: /^pdfkit$/ }, () => ({ path: PDFKIT_CJS }));
    b.onLoad({ filter: /[\\/]pdfkit[\\/]js[\\/]pdfkit\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const contents = source.replace(/require\$1\((['"]#standard-fonts\/)/g, 'require($1');
      if (contents === source) throw new Error('pdfkit-fonts: no standard font require found; pdfkit changed');
      return { contents, loader: 'js' };
    });
  },
};
