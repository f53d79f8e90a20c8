// In the components project (jsdom): the client runs against window, its toasts and i18n.
// What an operator saw with the database stopped: "Internal error". The server now answers 503
// "briefly unavailable" in the caller's language (decision 0083); so does the app for a 503
// that carries no envelope (a proxy's page while the server restarts).
import { screen } from '@testing-library/react';
import { orderEndpoints } from '@clearplay/contract/constants';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serveApi } from '../test/fake-api.ts';
import { api } from './api-client.ts';
import { setLocale } from './i18n.ts';

const UNAVAILABLE = {
  'zh-CN': '服务暂时不可用，请稍后重试',
  'en-US': 'The service is briefly unavailable, please try again shortly',
} as const;

/** A proxy's own 503 page: HTML, no envelope. */
const proxyPage = () =>
  vi.stubGlobal(
    'fetch',
    async () =>
      new Response('<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>', {
        status: 503,
        statusText: 'Service Unavailable',
        headers: { 'Content-Type': 'text/html' },
      }),
  );

describe('a 503 (the service briefly unavailable)', () => {
  afterEach(async () => {
    await setLocale('zh-CN');
  });

  it('from the server shows its message, not "Internal error"', async () => {
    serveApi(() => ({ status: 503, msg: UNAVAILABLE['zh-CN'], data: { retryAfterSeconds: 5 } }));
    await expect(api.get('/admin/announcement/list')).rejects.toMatchObject({ status: 503, message: UNAVAILABLE['zh-CN'] });
    expect(await screen.findByText(UNAVAILABLE['zh-CN'])).toBeTruthy();
    expect(screen.queryByText('服务器内部错误')).toBeNull();
  });

  for (const locale of ['zh-CN', 'en-US'] as const) {
    it(`from a proxy, without an envelope, says the service is briefly unavailable (${locale}), not "503 Service Unavailable"`, async () => {
      await setLocale(locale);
      proxyPage();
      await expect(api.get('/admin/announcement/list')).rejects.toMatchObject({ name: 'TransportError', message: UNAVAILABLE[locale] });
      expect(await screen.findByText(UNAVAILABLE[locale])).toBeTruthy();
      expect(screen.queryByText('503 Service Unavailable')).toBeNull();
    });
  }

  it('on a download, from a proxy, says the same', async () => {
    proxyPage();
    await expect(api.download(orderEndpoints.export, { fallbackName: 'orders.xlsx' })).rejects.toMatchObject({
      message: UNAVAILABLE['zh-CN'],
    });
    expect(await screen.findByText(UNAVAILABLE['zh-CN'])).toBeTruthy();
  });
});
