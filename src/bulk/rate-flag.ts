// `--rate N/s` of the bulk commands: the most requests a second a run may send (a quota the
// user knows). Checked strictly with the flags: a bad value exits 2 naming an example.
import * as z from 'zod/mini';
import { parseRate } from '../util/rate.js';

export const RATE_HELP = "most requests a second, e.g. 25/s or 600/min (default: found from the service's 429s; see docs/scripting.md)";

export const rateFlag = () =>
  z.pipe(
    z.string(),
    // an issue is pushed as classic zod's addIssue did (a zod/mini transform has none)
    z.transform((v, c) => {
      const r = parseRate(v);
      if (typeof r === 'string') {
        c.issues.push({ code: 'custom', message: `${r}; use e.g. --rate 25/s (requests per second) or --rate 600/min`, input: v });
        return z.NEVER;
      }
      return r;
    }),
  );
