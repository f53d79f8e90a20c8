/**
 * Set up before every server test file (vitest.config.ts `setupFiles`). The suite runs its files
 * one after another in one process (isolate: false), so whatever a file left faked or stubbed
 * is put back when the file ends: the next file starts on the real clock, console, globals and
 * environment, whatever the file before it did or failed to undo.
 */
import { afterAll, vi } from 'vitest';

afterAll(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});
