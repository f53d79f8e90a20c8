import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** One encoding of an asset: its bytes and the validator @fastify/static would send for its file. */
interface Variant {
  body: Buffer;
  etag: string;
  lastModified: string;
}

/** A built script or stylesheet under dist/assets/, with the .br and .gz the build wrote beside it. */
export interface Asset {
  type: string;
  identity: Variant;
  br?: Variant;
  gzip?: Variant;
}

/** What is kept in memory: the scripts and stylesheets (5–6 MB with their compressed copies); anything else is read per request. */
const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

function variant(file: string): Variant | undefined {
  let stat;
  try {
    stat = statSync(file);
  } catch {
    return undefined;
  }
  if (!stat.isFile()) return undefined;
  // The weak validator of `send` (under @fastify/static): size and modification time, in hex.
  return {
    body: readFileSync(file),
    etag: `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`,
    lastModified: stat.mtime.toUTCString(),
  };
}

/**
 * Reads dist/assets/ once, at start (decision 0117): a sign-in loads some 80 hashed chunks, and
 * @fastify/static looked each one up on disk (the .br, then the file) per request, about 5 ms of
 * the server's one thread apiece, so the chunks came in one after another at the server's pace
 * and the calls behind them (the signed-in user, the workplace's figures) waited. Keyed by the path
 * under the web root ("assets/index-abc123.js"). A file the build adds while the server runs is
 * not here: spa.ts sends it from disk as before.
 */
export function loadAssets(root: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  let names: string[];
  try {
    names = readdirSync(join(root, 'assets'));
  } catch {
    return assets;
  }
  for (const name of names) {
    const type = TYPES[extname(name)];
    if (!type) continue;
    const file = join(root, 'assets', name);
    const identity = variant(file);
    if (!identity) continue;
    assets.set(`assets/${name}`, { type, identity, br: variant(`${file}.br`), gzip: variant(`${file}.gz`) });
  }
  return assets;
}

/**
 * Sends a kept asset as @fastify/static would have: brotli, else gzip, else as it is, as the
 * client accepts; a year-long immutable cache (the name carries a content hash); 304 to a
 * matching If-None-Match.
 */
export function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: Asset): FastifyReply {
  const accepts = String(request.headers['accept-encoding'] ?? '');
  const [encoding, chosen] =
    asset.br && /\bbr\b/.test(accepts)
      ? (['br', asset.br] as const)
      : asset.gzip && /\bgzip\b/.test(accepts)
        ? (['gzip', asset.gzip] as const)
        : ([null, asset.identity] as const);
  void reply
    .header('cache-control', 'public, max-age=31536000, immutable')
    .header('vary', 'accept-encoding')
    .header('etag', chosen.etag)
    .header('last-modified', chosen.lastModified)
    .type(asset.type);
  if (request.headers['if-none-match'] === chosen.etag) return reply.code(304).send();
  if (encoding) void reply.header('content-encoding', encoding);
  return reply.send(chosen.body);
}
