import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Writes `<file>.gz` and `<file>.br` next to every text asset of dist/, so the server can
 * send them as they are (@fastify/static `preCompressed: true`) without compressing per
 * request. The login page's budget is measured in gzip bytes: it assumes this.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'clearplay:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
          entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
        );
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|svg|json|txt)$/.test(file) || file.includes('.vite')) continue;
        const raw = readFileSync(file);
        if (raw.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

/**
 * The contract package builds its TypeBox schemas at module level (`export const X =
 * Type.Object(...)`). The web app imports only its types and constants, so every `Type.*()`
 * call is marked pure here and dropped when unused; otherwise TypeBox rides along into the
 * login page's first load.
 */
function contractSchemasArePure(): Plugin {
  return {
    name: 'clearplay:contract-schemas-are-pure',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]packages[\\/]contract[\\/]src[\\/].*\.ts$/.test(id)) return null;
      return { code: code.replace(/(?<![\w.])Type\.(?=\w+\()/g, '/*#__PURE__*/ Type.'), map: null };
    },
  };
}

// The API server (apps/server) listens on :3000; in development Vite proxies /api to it.
// In production the server serves dist/ itself and falls back to index.html.
const SIDE_EFFECT_FREE =
  /[\\/](packages[\\/]contract[\\/]|node_modules[\\/](typebox|@rc-component[\\/][^\\/]+)[\\/](?!.*\.css$))/;

const apiTarget = process.env.API_TARGET ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [contractSchemasArePure(), react(), precompress()],
  server: {
    port: 5173,
    proxy: { '/api': { target: apiTarget, changeOrigin: true } },
  },
  preview: {
    port: 4173,
    proxy: { '/api': { target: apiTarget, changeOrigin: true } },
  },
  build: {
    target: 'es2022',
    // dist/.vite/manifest.json lets scripts/first-load.mjs measure the login page's first load.
    manifest: true,
    // The login first-load budget (200 KB gzip) is checked on the build report; keep the
    // warning meaningful for the lazily loaded screens too.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      treeshake: {
        // Packages without a `sideEffects` flag whose modules have no import-time side effects:
        // without this, importing one export keeps the whole package. The contract's and
        // TypeBox's schema builders (120 KB), and all of rc-form with its validator (25 KB
        // gzip, pulled in by Input's form context), were in the login page's first load.
        moduleSideEffects: (id: string) => !SIDE_EFFECT_FREE.test(id),
      },
      output: {
        codeSplitting: {
          // Shared by several lazy chunks only; left alone, Rolldown hoists it into the entry.
          groups: [
            {
              name: 'tanstack-query',
              test: /[\\/]node_modules[\\/]@tanstack[\\/]/,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
});
