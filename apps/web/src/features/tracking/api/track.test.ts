import { describe, expect, it } from 'vitest';
import { documentReferrer } from './track.ts';

describe('documentReferrer', () => {
  const origin = 'https://check.example.com';

  it('names a page of this site by its path and query, as the router reports a navigation', () => {
    expect(documentReferrer('https://check.example.com/', origin)).toBe('/');
    expect(documentReferrer('https://check.example.com/linkstore?lang=en-US', origin)).toBe('/linkstore?lang=en-US');
  });

  it('keeps another site’s address whole, and no referrer as none', () => {
    expect(documentReferrer('https://www.baidu.com/s?wd=clearplay', origin)).toBe('https://www.baidu.com/s?wd=clearplay');
    expect(documentReferrer('http://check.example.com/', origin)).toBe('http://check.example.com/'); // another origin: the scheme differs
    expect(documentReferrer('', origin)).toBe('');
  });

  it('passes a referrer that is no URL through as it is', () => {
    expect(documentReferrer('android-app://com.tencent.mm', origin)).toBe('android-app://com.tencent.mm');
    expect(documentReferrer('not a url', origin)).toBe('not a url');
  });
});
