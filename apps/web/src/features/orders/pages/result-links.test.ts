import { describe, expect, it } from 'vitest';
import { readResultQuery, resultPath } from './result-links.ts';

const roundTrip = (path: string) => readResultQuery(new URL(path, 'http://x').searchParams);

describe('the result pages’ links', () => {
  it('carry a submitted order’s id and code, and read them back', () => {
    const path = resultPath('success', { from: 'form', id: 42, code: 'CE4HTJ7G' });
    expect(path).toBe('/result/success?from=form&id=42&code=CE4HTJ7G');
    expect(roundTrip(path)).toEqual({ from: 'form', id: 42, code: 'CE4HTJ7G' });
    expect(resultPath('fail', { from: 'form' })).toBe('/result/fail?from=form');
  });

  it('carry an import’s counts', () => {
    const path = resultPath('success', { from: 'import', total: 5, imported: 3, rejected: 2 });
    expect(roundTrip(path)).toEqual({ from: 'import', total: 5, imported: 3, rejected: 2 });
  });

  it('leave out what a hand-edited link gets wrong', () => {
    expect(roundTrip('/result/success?from=form&id=-3&code=<script>')).toEqual({ from: 'form' });
    expect(roundTrip('/result/success?id=1.5')).toEqual({ from: 'form' });
    expect(roundTrip('/result/success?from=import&total=x&imported=-1&rejected=2')).toEqual({
      from: 'import',
      total: 0,
      imported: 0,
      rejected: 2,
    });
  });
});
