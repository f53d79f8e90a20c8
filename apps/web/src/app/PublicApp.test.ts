import { describe, expect, it } from 'vitest';
import { publicPageOf } from './PublicApp.tsx';

describe('the public entry’s pages', () => {
  it('knows the public addresses and nothing else', () => {
    expect(publicPageOf('/')).toEqual({ name: 'landing' });
    expect(publicPageOf('/home')).toEqual({ name: 'landing' });
    expect(publicPageOf('/linkstore')).toEqual({ name: 'linkstore' });
    expect(publicPageOf('/verify/ABCD2345')).toEqual({ name: 'verify', code: 'ABCD2345' });
    expect(publicPageOf('/verify/a%20b')).toEqual({ name: 'verify', code: 'a b' });
    expect(publicPageOf('/verify/%E0%A4%A')).toEqual({ name: 'verify', code: '%E0%A4%A' });
    for (const path of ['/login', '/verify', '/verify/a/b', '/linkstore/x', '/order/inspect']) expect(publicPageOf(path)).toBeNull();
  });
});
