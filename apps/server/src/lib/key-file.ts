import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A secret of the instance: the configured value when there is one (several instances must be
 * given the same), else one generated on first start and kept in `<dataDir>/<fileName>` (mode
 * 0600), so it survives a restart. Two processes starting at once keep the first one written.
 * A file shorter than `min` characters is refused with `unreadable` as the message: what to do
 * depends on what the secret protects.
 */
export function configuredOrKeptSecret(
  dataDir: string,
  fileName: string,
  configured: string | null,
  { min, unreadable }: { min: number; unreadable: string },
): string {
  if (configured !== null) return configured;
  const file = join(dataDir, fileName);
  const read = (): string | null => {
    try {
      const saved = readFileSync(file, 'utf8').trim();
      if (saved.length >= min) return saved;
      throw new Error(`${file} ${unreadable}`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  };
  const saved = read();
  if (saved !== null) return saved;
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(file, randomBytes(32).toString('base64url') + '\n', { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return read()!;
}
