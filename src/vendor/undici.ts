// Build-only stand-in for 'undici' (scripts/build.mjs aliases it): the package from the code cache.
import type * as Undici from 'undici';
import { requireCached } from './code-cache.js';

export const { Agent, EnvHttpProxyAgent, request } = requireCached('undici') as typeof Undici;
