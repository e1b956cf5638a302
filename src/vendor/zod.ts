// Build-only stand-in for 'zod' (scripts/build.mjs aliases it): the package from the code cache.
import type * as Zod from 'zod';
import { requireCached } from './code-cache.js';

export const { z } = requireCached('zod') as typeof Zod;
