import { readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A built script or stylesheet under dist/assets/, with the .br and .gz the build wrote beside it. */
export interface Asset {
  type: string;
  /** One weak validator for the file and its compressed copies: the same content (etagOf). */
  etag: string;
  lastModified: string;
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

/** What is kept in memory: the hashed scripts and stylesheets; anything else is sent from disk. */
const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};
const KEPT = /^assets\/[^/\\]+\.(js|css)$/;

/** The weak validator of `send` (under @fastify/static): size and modification time, in hex. The one place it is made. */
const etagOf = (size: number, mtimeMs: number) => `W/"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`;

async function readIfFile(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch {
    return undefined;
  }
}

async function load(root: string, relative: string): Promise<Asset | null> {
  const file = join(root, relative);
  let info;
  try {
    info = await stat(file);
  } catch {
    return null;
  }
  if (!info.isFile()) return null;
  const [identity, br, gzip] = await Promise.all([readFile(file), readIfFile(`${file}.br`), readIfFile(`${file}.gz`)]);
  return {
    type: TYPES[extname(file)] as string,
    etag: etagOf(info.size, info.mtimeMs),
    lastModified: info.mtime.toUTCString(),
    identity,
    br,
    gzip,
  };
}

/**
 * The hashed chunks, each read on its first request and then sent from memory (decisions 0117,
 * 0121): a sign-in loads some 60 of them at once, and @fastify/static looked each one up on disk
 * per request (a stat of the .br, then the file), several ms of the server's one thread apiece
 * under load, while the calls behind them waited. Nothing is read at start; what is kept is what
 * was asked for (at most the build's scripts and stylesheets, ~6 MB with their compressed copies).
 * Keyed by the path under the web root ("assets/index-abc123.js"). A chunk a new build removed
 * stays served once it was asked for (a page loaded before still finds its chunks); a file not
 * found is not remembered, so one a new build adds is found.
 */
export function assetCache(root: string): (relative: string) => Promise<Asset | null> {
  const kept = new Map<string, Promise<Asset | null>>();
  return (relative) => {
    if (!KEPT.test(relative)) return Promise.resolve(null);
    let found = kept.get(relative);
    if (!found) {
      found = load(root, relative);
      kept.set(relative, found);
      void found.then((asset) => asset ?? kept.delete(relative));
    }
    return found;
  };
}

/**
 * Sends a kept asset as @fastify/static would have: brotli, else gzip, else as it is, as the
 * client accepts; a year-long immutable cache (the name carries a content hash); 304 to a
 * matching If-None-Match.
 */
export function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: Asset): FastifyReply {
  const accepts = String(request.headers['accept-encoding'] ?? '');
  const [encoding, body] =
    asset.br && /\bbr\b/.test(accepts)
      ? (['br', asset.br] as const)
      : asset.gzip && /\bgzip\b/.test(accepts)
        ? (['gzip', asset.gzip] as const)
        : ([null, asset.identity] as const);
  void reply
    .header('cache-control', 'public, max-age=31536000, immutable')
    .header('vary', 'accept-encoding')
    .header('etag', asset.etag)
    .header('last-modified', asset.lastModified)
    .type(asset.type);
  const validators = String(request.headers['if-none-match'] ?? '').split(/\s*,\s*/);
  if (validators.includes(asset.etag)) return reply.code(304).send();
  if (encoding) void reply.header('content-encoding', encoding);
  return reply.send(body);
}
