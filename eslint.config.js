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
    // zod/mini only: the classic API ('zod') brings every schema kind and method into the bundle
    // and ~4 ms to every start (src/util/zod-settings.ts). `import * as z from 'zod/mini'` lets
    // esbuild keep only what is used (`import { z }` would be the whole namespace object).
    files: ['src/**/*.ts', 'test/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'zod', message: "use `import * as z from 'zod/mini'` (see eslint.config.js)" }] },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "ImportDeclaration[source.value='zod/mini'] > :matches(ImportSpecifier[imported.name='z'], ImportDefaultSpecifier)",
          message: "write `import * as z from 'zod/mini'` (see eslint.config.js)",
        },
      ],
    },
  },
);
