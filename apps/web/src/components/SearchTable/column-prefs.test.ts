import { describe, expect, it } from 'vitest';
import { defaultPrefs, move, reconcile } from './column-prefs.ts';

const columns = [{ key: 'a' }, { key: 'b' }, { key: 'c', defaultHidden: true }, { key: 'd' }];

describe('column prefs', () => {
  it('defaults to the declared order with defaultHidden columns hidden', () => {
    expect(defaultPrefs(columns)).toEqual({ order: ['a', 'b', 'c', 'd'], hidden: ['c'], density: 'medium' });
  });

  it('keeps a saved order, drops unknown keys and places new columns after their default neighbour', () => {
    const saved = { order: ['d', 'zz', 'b', 'a'], hidden: ['a', 'zz'], density: 'mini' };
    expect(reconcile(columns, saved, defaultPrefs(columns))).toEqual({ order: ['d', 'b', 'c', 'a'], hidden: ['a'], density: 'mini' });
  });

  it('falls back on garbage', () => {
    const fallback = defaultPrefs(columns);
    expect(reconcile(columns, null, fallback)).toBe(fallback);
    expect(reconcile(columns, { order: 'x', density: 'huge' }, fallback)).toEqual({
      order: ['a', 'b', 'c', 'd'],
      hidden: ['c'],
      density: 'medium',
    });
  });

  it('moves a column up and down within bounds', () => {
    expect(move(['a', 'b', 'c'], 'b', -1)).toEqual(['b', 'a', 'c']);
    expect(move(['a', 'b', 'c'], 'b', 1)).toEqual(['a', 'c', 'b']);
    expect(move(['a', 'b', 'c'], 'a', -1)).toEqual(['a', 'b', 'c']);
    expect(move(['a', 'b', 'c'], 'c', 1)).toEqual(['a', 'b', 'c']);
  });
});
