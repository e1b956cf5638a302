// `--rate N/s` of the bulk commands: the most requests a second a run may send (a quota the
// user knows). Checked strictly with the flags: a bad value exits 2 naming an example.
import { readAs } from '../util/read-as.js';
import { parseRate } from '../util/rate.js';
import { manualRef } from '../util/manuals.js';

export const RATE_HELP =
  `most requests a second, e.g. 25/s or 600/min (default: found from the service's 429s; see ` +
  `${manualRef('scripting.md')})`;

export const rateFlag = () =>
  readAs((text, refuse) => {
    const r = parseRate(text);
    return typeof r === 'string' ? refuse(`${r}; use e.g. --rate 25/s (requests per second) or --rate 600/min`) : r;
  });
