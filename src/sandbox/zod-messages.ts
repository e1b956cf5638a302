// zod's English messages for the sandbox wherever it runs. zod/mini loads no messages of its own
// (the classic API did, on its first schema): the CLI sets them in src/cli/zod-jitless.ts, which
// the sandbox used as a library (startSandbox, buildServer: tests, the state child) never imports.
// Without them a bad body would be answered "Invalid input" instead of "Invalid input: expected
// object, received array". Setting them twice is harmless.
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

z.config(en());
