// Which command lines run in a child Node (src/cli/bulk-child.ts).
import { describe, expect, it } from 'vitest';
import { looksBulk } from '../../src/cli/bulk-child.js';

describe('looksBulk', () => {
  it.each([
    ['invite 1001 --from-csv c.csv', true],
    ['invite 1001 --from-csv=c.csv', true],
    ['--profile work invite 1001 --from-csv -', true],
    ['invite 1001 --csv c.csv', true],
    ['invite 1001 --csv=c.csv', true],
    ['report export --from 1d', true],
    ['callbacks process --from-file n.ndjson', true],
    ['invite 1001 --email a@b.example --name A', false],
    ['invite 1001 --email a@b.example --name A --csv', false],
    ['invite 1001 --email a@b.example --csv --name A', false],
    ['invite 1001 --from-csv c.csv --help', false],
    ['report 900001', false],
    ['report stats', false],
    ['callbacks listen', false],
    ['tests list', false],
  ])('%s → %s', (line, bulk) => {
    expect(looksBulk(line.split(' '))).toBe(bulk);
  });
});
