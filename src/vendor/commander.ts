// Build-only stand-in for 'commander' (scripts/build.mjs aliases it): the package from the code cache.
import type * as Commander from 'commander';
import { requireCached } from './code-cache.js';

export const { Command, CommanderError, Option } = requireCached('commander') as typeof Commander;
