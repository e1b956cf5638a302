// OWASP CSV injection: which cells are neutralised (the e2e test covers the commands; the
// service trims names, so tab and CR starts are checked here).
import { describe, expect, it } from 'vitest';
import { neutraliseFormula, toCsvLine } from '../../src/output/csv.js';

describe('neutraliseFormula', () => {
  it.each(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'])('%j gets a leading quote', (v) => {
    expect(neutraliseFormula(v)).toBe(`'${v}`);
  });
  it.each(['Ann', '1', "'=x", ' =x', ''])('%j is left alone', (v) => {
    expect(neutraliseFormula(v)).toBe(v);
  });
  it('toCsvLine leaves numbers (also negative) alone and quotes what needs it', () => {
    expect(toCsvLine([-5, '=A1', 'a,b', null], { formulaSafe: true })).toBe(`-5,'=A1,"a,b",\r\n`);
    expect(toCsvLine(['=A1'])).toBe('=A1\r\n');
  });
});
