import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/context.ts';

let closed: TestContext;
let open: TestContext;
beforeAll(async () => {
  [closed, open] = await Promise.all([
    createTestContext(),
    createTestContext({ env: { CORS_ORIGINS: 'https://admin.example.com', TRUST_PROXY: 'true' } }),
  ]);
});
afterAll(() => Promise.all([closed.destroy(), open.destroy()]));

describe('security headers', () => {
  it('sends a strict Content-Security-Policy and the usual headers, without HSTS by default', async () => {
    const res = await closed.app.inject({ method: 'GET', url: '/login' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("script-src-attr 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['referrer-policy']).toBe('same-origin');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('adds HSTS and the HTTPS upgrade when TRUST_PROXY says a proxy ends TLS in front', async () => {
    const res = await open.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['strict-transport-security']).toBe('max-age=15552000; includeSubDomains');
    expect(String(res.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
  });

  it('gives the API docs (Swagger UI) their own policy, still never framed', async () => {
    const res = await closed.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).not.toContain('upgrade-insecure-requests');
  });
});

describe('CORS', () => {
  it('is closed by default: no allow-origin for another origin, preflight refused', async () => {
    const res = await closed.app.inject({ method: 'GET', url: '/api/health', headers: { origin: 'https://evil.example' } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await closed.app.inject({
      method: 'OPTIONS',
      url: '/api/admin/user/info',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.statusCode).toBeGreaterThanOrEqual(400);
  });

  it('allows exactly the origins CORS_ORIGINS lists', async () => {
    const allowed = await open.app.inject({
      method: 'OPTIONS',
      url: '/api/admin/user/info',
      headers: {
        origin: 'https://admin.example.com',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(allowed.statusCode).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://admin.example.com');
    expect(String(allowed.headers['access-control-allow-headers'])).toContain('Authorization');
    const other = await open.app.inject({ method: 'GET', url: '/api/health', headers: { origin: 'https://evil.example' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const ok = await open.app.inject({ method: 'GET', url: '/api/health', headers: { origin: 'https://admin.example.com' } });
    expect(ok.headers['access-control-allow-origin']).toBe('https://admin.example.com');
    expect(String(ok.headers['access-control-expose-headers'])).toContain('X-Request-Id');
  });
});
