// Every test file ends by removing the temp dirs its tests left (test/helpers/cli.ts tempDir).
import { afterAll } from 'vitest';
import { removeLeftOverTempDirs } from './helpers/cli.js';

afterAll(removeLeftOverTempDirs);
