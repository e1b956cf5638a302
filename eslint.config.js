// ESLint: only type-aware rules that catch real bugs (formatting is Prettier's job, types are tsc's).
// The listener, delivery and bulk code run many background promises; an unawaited or misused one
// loses its error or lets the process exit early.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'dist.*/', 'node_modules/', 'coverage/', 'bench/out/'] },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // `import { z }` is zod's whole namespace object, locales included: esbuild cannot leave
    // anything out (~590 kB more in dist/cli.cjs, read and deserialised by every command).
    // `import * as z` lets it keep only what is used.
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='zod'] > :matches(ImportSpecifier[imported.name='z'], ImportDefaultSpecifier)",
          message: "write `import * as z from 'zod'` (see eslint.config.js)",
        },
      ],
    },
  },
);
