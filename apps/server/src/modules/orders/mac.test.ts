import { describe, expect, it } from 'vitest';
import { macFilterPrefix, normalizeMac } from '@clearplay/contract';

describe('normalizeMac', () => {
  it('accepts every documented spelling in any case and answers AA-BB-CC-DD-EE-FF', () => {
    for (const spelling of [
      '0a-1b-2c-3d-4e-5f',
      '0A-1B-2C-3D-4E-5F',
      '0a:1b:2c:3d:4e:5f',
      '0A:1b:2C:3d:4E:5f',
      '0a1b2c3d4e5f',
      '0A1B2C3D4E5F',
      '0a1b.2c3d.4e5f',
      '0A1B.2C3D.4E5F',
    ]) {
      expect(normalizeMac(spelling), spelling).toBe('0A-1B-2C-3D-4E-5F');
    }
  });

  it('ignores surrounding spaces', () => {
    expect(normalizeMac('  aa:bb:cc:dd:ee:ff\t')).toBe('AA-BB-CC-DD-EE-FF');
  });

  it('refuses anything else', () => {
    for (const bad of [
      '',
      '   ',
      'aa:bb:cc:dd:ee', // five groups
      'aa:bb:cc:dd:ee:ff:00', // seven groups
      'aabbccddeef', // 11 digits
      'aabbccddeeff0', // 13 digits
      'gg:bb:cc:dd:ee:ff', // not hex
      'aa-bb:cc-dd:ee-ff', // mixed separators
      'aa bb cc dd ee ff', // spaces are not a separator
      'a:b:c:d:e:f', // single digits
      'aabb.ccdd.eeff.0011',
      'aab.bccd.deeff',
      'aa:bb:cc:dd:ee:ff ; drop table',
    ]) {
      expect(normalizeMac(bad), JSON.stringify(bad)).toBeNull();
    }
  });
});

describe('macFilterPrefix', () => {
  it('turns the beginning of any spelling into the beginning of the normal form', () => {
    expect(macFilterPrefix('a')).toBe('A');
    expect(macFilterPrefix('aa')).toBe('AA');
    expect(macFilterPrefix('aa:b')).toBe('AA-B');
    expect(macFilterPrefix('aa-bb-')).toBe('AA-BB');
    expect(macFilterPrefix('aabbc')).toBe('AA-BB-C');
    expect(macFilterPrefix('aabb.cc')).toBe('AA-BB-CC');
    expect(macFilterPrefix('AA:BB:CC:DD:EE:FF')).toBe('AA-BB-CC-DD-EE-FF');
    expect(macFilterPrefix(' aabb.ccdd.eeff ')).toBe('AA-BB-CC-DD-EE-FF');
  });

  it('stops at twelve digits', () => {
    expect(macFilterPrefix('aabbccddeeff00')).toBe('AA-BB-CC-DD-EE-FF');
  });

  it('refuses text with anything but hex digits and separators, or without a digit', () => {
    for (const bad of ['', '   ', '---', ':.', 'xyz', 'aa:zz', 'aa%', 'aa_bb', "aa' or 1=1"]) {
      expect(macFilterPrefix(bad), JSON.stringify(bad)).toBeNull();
    }
  });
});
