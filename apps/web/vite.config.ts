import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { build, defineConfig, type Manifest, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { antdStaticCss } from './antd-static-css.ts';
import { echartsTrim } from './echarts-trim.ts';
import { endpointsTrim } from './endpoints-trim.ts';
import type { Prerendered } from './src/prerender/login.tsx';
import type { PublicPrerendered } from './src/prerender/public.tsx';

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
    // After the prerender (below) has written login.html.
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
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
    },
  };
}

/**
 * dist/login.html: index.html with the login screen already rendered in it (zh-CN, light
 * theme), so a phone paints the form from the HTML instead of after ~20 scripts have run.
 * The server sends it for GET /login (apps/server/src/plugins/spa.ts); main.tsx hydrates
 * it. Steps: a Vite SSR build of src/prerender/login.tsx (everything bundled, into a
 * scratch folder), its render() in this process, then the page:
 *   - antd's styles for the markup, extracted at render time, with the cache-path marker
 *     that makes antd's CSS-in-JS in the browser reuse them instead of generating them;
 *   - the app's CSS (entry and login screen) inlined, so no stylesheet blocks the paint;
 *   - a loader (public/login-loader.js) that, once the form is painted, requests the entry
 *     together with the login screen's chunks and the zh-CN messages (modulepreload), which
 *     the entry would otherwise discover one round trip after another;
 *   - a guard against the browser's own form submission before React has taken over
 *     (public/boot.js, loaded by index.html).
 */
function prerenderLogin(): Plugin {
  let root = '';
  let outDir = 'dist';
  return {
    name: 'clearplay:prerender-login',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = config.build.outDir;
    },
    closeBundle: {
      sequential: true,
      async handler() {
        const scratch = join(root, 'node_modules', '.prerender');
        await build({
          configFile: false,
          root,
          logLevel: 'warn',
          mode: 'production',
          plugins: [react()],
          define: { 'process.env.NODE_ENV': JSON.stringify('production') },
          ssr: { noExternal: true },
          build: {
            // Both prerenders in one SSR build: the login page and the public pages (decision 0068).
            ssr: true,
            outDir: scratch,
            emptyOutDir: true,
            target: 'node20',
            minify: false,
            rolldownOptions: {
              input: { login: 'src/prerender/login.tsx', public: 'src/prerender/public.tsx' },
              output: { entryFileNames: '[name].mjs' },
              // This entry imports the login screen and messages that the app loads lazily: expected.
              checks: { ineffectiveDynamicImport: false },
            },
          },
        });
        const { render } = (await import(pathToFileURL(join(scratch, 'login.mjs')).href)) as {
          render: () => Promise<Prerendered>;
        };
        const page = await render();
        const publicPages = (await import(pathToFileURL(join(scratch, 'public.mjs')).href)) as {
          render: () => Promise<PublicPrerendered[]>;
        };
        const pages = await publicPages.render();
        rmSync(scratch, { recursive: true, force: true });
        const dist = join(root, outDir);
        writeFileSync(join(dist, 'login.html'), loginHtml(dist, page));
        mkdirSync(join(dist, 'prerendered'), { recursive: true });
        for (const p of pages) writeFileSync(join(dist, 'prerendered', `${p.name}.${p.locale}.html`), publicHtml(dist, p));
      },
    },
  };
}

function loginHtml(dist: string, page: Prerendered): string {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const key = (suffix: string) => {
    const found = Object.keys(manifest).find((k) => k.endsWith(suffix));
    if (!found) throw new Error(`prerender: ${suffix} is not in the build manifest`);
    return found;
  };
  const entry = 'index.html';
  if (!manifest[entry]?.isEntry) throw new Error('prerender: index.html is not an entry of the build manifest');
  // Everything the entry already preloads (index.html has those links) is skipped.
  const inIndex = new Set<string>();
  const staticDeps = (k: string, into: Set<string>) => {
    const chunk = manifest[k];
    if (!chunk || into.has(chunk.file)) return;
    into.add(chunk.file);
    for (const dep of chunk.imports ?? []) staticDeps(dep, into);
  };
  staticDeps(entry, inIndex);
  const extra = new Set<string>();
  staticDeps(key('features/auth/LoginPage.tsx'), extra);
  staticDeps(key(`locales/${page.locale}.ts`), extra);
  const extraPreloads = [...extra].filter((file) => !inIndex.has(file)).map((file) => `/${file}`);
  const entryCss = manifest[entry]?.css ?? [];
  const loginCss = manifest[key('features/auth/LoginPage.tsx')]?.css ?? [];
  const inlineCss = [...entryCss, ...loginCss].map((file) => readFileSync(join(dist, file), 'utf8')).join('\n');
  // Vite's loader adds a stylesheet link for the login chunk's CSS unless one is in the page;
  // a disabled one (never fetched or applied) tells it the rules are there already.
  const cssMarkers = [...entryCss, ...loginCss].map((file) => `<link rel="stylesheet" href="/${file}" disabled>`).join('');

  let html = readFileSync(join(dist, 'index.html'), 'utf8');
  const replace = (pattern: RegExp | string, by: string) => {
    const next = html.replace(pattern, () => by);
    if (next === html) throw new Error(`prerender: index.html has no ${String(pattern)}`);
    html = next;
  };
  // antd's styles first, as in the browser (its CSS-in-JS prepends them to <head>).
  replace('<title>', `${page.styles}\n    <title>`);
  replace(/<link rel="stylesheet"[^>]*>/, `<style>${inlineCss}</style>${cssMarkers}`);
  // Paint first, then load the app: the form needs no script to show, so the entry and its
  // chunks are requested once the browser has painted it (first-contentful-paint), rather
  // than competing with the page for the phone's CPU and bandwidth (Lighthouse's model of a
  // slow phone also counts every script that finished before that paint as holding it up).
  html = loadAfterPaint(html, 'index.html', extraPreloads);
  // The guard against the browser's own submission before React takes the form over is in
  // public/boot.js, which index.html (and so this page) loads first.
  replace('<div id="root"></div>', `<div id="root" data-prerendered="${page.locale}">${page.html}</div>`);
  return html;
}

/**
 * Takes the entry script and its modulepreloads out of a built page and has public/login-loader.js
 * request them (with `extraPreloads`) once the page has painted: a prerendered page needs no
 * script to show. An external loader, not an inline script: the server's Content-Security-Policy
 * forbids inline ones.
 */
function loadAfterPaint(html: string, page: string, extraPreloads: readonly string[]): string {
  const scripts: string[] = [];
  let out = html.replace(/\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g, (_, href: string) => {
    scripts.push(href);
    return '';
  });
  let entrySrc = '';
  out = out.replace(/\s*<script type="module" crossorigin src="([^"]+)"><\/script>/, (_, src: string) => {
    entrySrc = src;
    return '';
  });
  if (!entrySrc) throw new Error(`prerender: ${page} has no entry script`);
  if (!out.includes('</body>')) throw new Error(`prerender: ${page} has no </body>`);
  const preloads = [...scripts, ...extraPreloads].join(' ');
  return out.replace(
    '</body>',
    () =>
      `  <script src="/login-loader.js" data-entry="${escapeAttr(entrySrc)}" data-preloads="${escapeAttr(preloads)}" defer></script>\n  </body>`,
  );
}

/**
 * Where the server puts the public pages' base URL (PUBLIC_URL, else the request's origin;
 * decision 0051) in their absolute links: canonical, hreflang alternates, og:url. Keep in
 * step with apps/server/src/plugins/public-site.ts.
 */
const PUBLIC_BASE = '%CLEARPLAY_PUBLIC_BASE%';

const escapeAttr = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/**
 * dist/prerendered/<page>.<locale>.html: public.html with the page already rendered in #root
 * (decision 0068) and its head (decision 0069): title, description, canonical address, the
 * hreflang alternates (zh-CN at the bare path, en-US at `?lang=en-US`) and Open Graph tags. The
 * public entry's CSS is inlined (no stylesheet request before the first paint), the scripts are
 * requested once the page has painted (public/login-loader.js, as on the login page), the page's
 * messages with them. The server fills in PUBLIC_BASE per request.
 */
function publicHtml(dist: string, page: PublicPrerendered): string {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const entry = manifest['public.html'];
  if (!entry?.isEntry) throw new Error('prerender: public.html is not an entry of the build manifest');
  // The core messages and the public pages' own (lib/i18n.ts `public`, decision 0112).
  const messages = [`locales/${page.locale}.ts`, `locales/screens/public.${page.locale}.ts`].map((suffix) => {
    const key = Object.keys(manifest).find((k) => k.endsWith(suffix));
    if (!key || !manifest[key]) throw new Error(`prerender: ${suffix} is not in the build manifest`);
    return `/${manifest[key].file}`;
  });
  // The CSS of the entry and of the chunks it imports (each has its <link> in public.html).
  const css: string[] = [];
  const seen = new Set<string>();
  const collect = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    for (const dep of chunk.imports ?? []) collect(dep);
    css.push(...(chunk.css ?? []).filter((file) => !css.includes(file)));
  };
  collect('public.html');
  const inlineCss = css.map((file) => readFileSync(join(dist, file), 'utf8')).join('\n');
  const href = (locale: string) => (locale === 'zh-CN' ? page.path : `${page.path}?lang=${locale}`);
  const url = (locale: string) => `${PUBLIC_BASE}${href(locale)}`;
  const head = [
    `<title>${escapeText(page.title)}</title>`,
    `<meta name="description" content="${escapeAttr(page.description)}" />`,
    `<link rel="canonical" href="${url(page.locale)}" />`,
    `<link rel="alternate" hreflang="zh-CN" href="${url('zh-CN')}" />`,
    `<link rel="alternate" hreflang="en-US" href="${url('en-US')}" />`,
    `<link rel="alternate" hreflang="x-default" href="${url('zh-CN')}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="ClearPlay" />`,
    `<meta property="og:title" content="${escapeAttr(page.title)}" />`,
    `<meta property="og:description" content="${escapeAttr(page.description)}" />`,
    `<meta property="og:url" content="${url(page.locale)}" />`,
    `<meta property="og:locale" content="${page.locale.replace('-', '_')}" />`,
    `<meta property="og:locale:alternate" content="${(page.locale === 'zh-CN' ? 'en-US' : 'zh-CN').replace('-', '_')}" />`,
  ].join('\n    ');

  let html = readFileSync(join(dist, 'public.html'), 'utf8');
  const replace = (pattern: RegExp | string, by: string) => {
    if (typeof pattern === 'string' ? !html.includes(pattern) : !pattern.test(html)) {
      throw new Error(`prerender: public.html has no ${String(pattern)}`);
    }
    html = html.replace(pattern, () => by);
  };
  replace('<html lang="zh-CN" data-public>', `<html lang="${page.locale}" data-public>`);
  replace(/<meta name="description"[^>]*>\s*/, '');
  replace('<title>ClearPlay</title>', head);
  replace(/(\s*<link rel="stylesheet"[^>]*>)+/, `\n    <style>${inlineCss}</style>`);
  // Paint first, then load the scripts, as the login page does (public/login-loader.js): the
  // page needs no script to show, and scripts requested before the first paint compete with it
  // (Lighthouse's slow-phone model counts them as holding it up). The page's messages are
  // requested with the entry rather than one round trip after it.
  html = loadAfterPaint(html, 'public.html', messages);
  replace('<div id="root"></div>', `<div id="root" data-prerendered="${page.locale}">${page.html}</div>`);
  return html;
}

/**
 * In development, Vite answers every unknown path with index.html; the public pages are
 * public.html's (apps/server/src/plugins/spa.ts does the same in production, prerendered).
 */
function devPublicPages(): Plugin {
  return {
    name: 'clearplay:dev-public-pages',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        const [path = '', query] = (req.url ?? '').split('?');
        if (/^\/(home|linkstore|verify\/[^/]+)?$/.test(path)) req.url = `/public.html${query ? `?${query}` : ''}`;
        next();
      });
    },
  };
}

/**
 * Points one import of an antd module (`source`, as written in the importers matching
 * `importer`) at a virtual module whose code `load` makes from the file the import would have
 * reached. The virtual module's own imports resolve as from that file. Used to keep code the
 * app never runs out of the login page's first load (decision 0075).
 */
function redirectAntdImport(options: {
  name: string;
  source: string;
  importer: RegExp;
  file: (importer: string) => string;
  load: (file: string, fail: (message: string) => never) => string;
}): Plugin {
  const id = `\0clearplay:${options.name}`;
  let file = '';
  return {
    name: `clearplay:${options.name}`,
    enforce: 'pre',
    async resolveId(source, importer, resolveOptions) {
      if (importer === id) return this.resolve(source, file, { ...resolveOptions, skipSelf: true });
      if (source !== options.source || !importer || !options.importer.test(importer)) return null;
      file = options.file(importer);
      return id;
    },
    load(loaded) {
      if (loaded !== id) return null;
      return options.load(file, (message) => this.error(message));
    },
  };
}

/**
 * antd's Button and Tag styles import `isBright` from the ColorPicker's presets module
 * (antd/es/color-picker/components/ColorPresets.js), which also imports antd Collapse. Once a
 * chunk renders a ColorPicker (the settings drawer), that module is live, and Rolldown keeps it,
 * Collapse included, in the Button chunk the login page loads (decision 0055). This points
 * those two imports at a module holding `isBright` alone, its source copied from antd's at
 * build time (the build fails if antd's module no longer has it in that shape), so the presets
 * and Collapse stay in the ColorPicker's chunk (decision 0075).
 */
const COLOR_PRESETS_IMPORT = '../../color-picker/components/ColorPresets';

const antdIsBrightOnly = () =>
  redirectAntdImport({
    name: 'antd-is-bright-only',
    source: COLOR_PRESETS_IMPORT,
    importer: /[\\/]antd[\\/]es[\\/](button|tag)[\\/]style[\\/][^\\/]+\.js$/,
    file: (importer) => resolve(dirname(importer), `${COLOR_PRESETS_IMPORT}.js`),
    load(presetsFile, fail) {
      const source = readFileSync(presetsFile, 'utf8');
      const helper = /^export const isBright = \([^)]*\) => \{\n[\s\S]*?\n\};$/m.exec(source)?.[0];
      const colorImport = /^import \{[^}]*\bColor as RcColor\b[^}]*\} from '@rc-component\/color-picker';$/m.test(source);
      if (!helper || !colorImport || /\b(Collapse|useLocale|useToken|generateColor)\b/.test(helper)) {
        fail(`${presetsFile} no longer has the isBright helper this plugin copies; see decision 0075`);
      }
      return `import { Color as RcColor } from '@rc-component/color-picker';\n${helper}\n`;
    },
  });

/**
 * antd's ConfigProvider imports the tooltips' UniqueProvider (with @rc-component/trigger,
 * portal and resize-observer: ~8 KB gzip) for its `tooltip.unique` option, which this app does
 * not set, so every page's first load carried it unused, the login page's included. This
 * points that one import at a module loading the provider on demand (React.lazy): the trigger
 * code comes with the first screen that shows a tooltip or popup instead. Were `tooltip.unique`
 * ever set, the first render would wait for that chunk (decision 0075).
 */
const UNIQUE_PROVIDER_IMPORT = '../tooltip/UniqueProvider';

const antdUniqueProviderOnDemand = () =>
  redirectAntdImport({
    name: 'antd-unique-provider-on-demand',
    source: UNIQUE_PROVIDER_IMPORT,
    importer: /[\\/]antd[\\/]es[\\/]config-provider[\\/]index\.js$/,
    file: (importer) => resolve(dirname(importer), UNIQUE_PROVIDER_IMPORT, 'index.js'),
    load: (providerFile) =>
      [
        `import React from 'react';`,
        `const Provider = React.lazy(() => import(${JSON.stringify(providerFile)}));`,
        `const UniqueProvider = (props) => React.createElement(React.Suspense, null, React.createElement(Provider, props));`,
        `export default UniqueProvider;`,
      ].join('\n'),
  });

/**
 * React Router ships the same code twice, dist/development and dist/production, the two differing
 * only in `ENABLE_DEV_WARNINGS` (its console warnings and the "hey developer" text of its default
 * error screen), and its package exports name the development copy only. The build takes the
 * production copy: 601 B gzip less in the login page's first load (decision 0112). `vite` (dev)
 * and the tests keep the development copy and its warnings. The build fails if the production
 * copy is not where the development one is, under dist/production.
 */
function reactRouterProduction(): Plugin {
  const production = (specifier: string) => {
    const development = fileURLToPath(import.meta.resolve(specifier));
    const file = development.replace(`${sep}development${sep}`, `${sep}production${sep}`);
    if (file === development || !existsSync(file)) throw new Error(`${specifier}: no production build beside ${development}`);
    return file;
  };
  let files: Record<string, string> = {};
  return {
    name: 'clearplay:react-router-production',
    apply: 'build',
    enforce: 'pre',
    buildStart() {
      files = { 'react-router': production('react-router'), 'react-router/dom': production('react-router/dom') };
    },
    resolveId(source) {
      return files[source] ?? null;
    },
  };
}

// The API server (apps/server) listens on :3000; in development Vite proxies /api to it.
// In production the server serves dist/ itself and falls back to index.html.
const SIDE_EFFECT_FREE = /[\\/]node_modules[\\/]@rc-component[\\/][^\\/]+[\\/](?!.*\.css$)/;

const apiTarget = process.env.API_TARGET ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [
    react(),
    antdIsBrightOnly(),
    antdUniqueProviderOnDemand(),
    devPublicPages(),
    prerenderLogin(),
    precompress(),
    echartsTrim(),
    endpointsTrim(),
    reactRouterProduction(),
    antdStaticCss(),
  ],
  resolve: {
    // ECharts and zrender each ship their own copy of tslib 2.3; one copy, shared with the
    // app's other chunks, instead of two inside the chart chunk (decision 0073).
    dedupe: ['tslib'],
  },
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
    modulePreload: {
      // The login page's dialogs (account help, the second sign-in step) load on a click or
      // after a password check: their chunks then fetch what they import themselves, and the
      // login page's first load does not carry the list of their dependencies to preload.
      resolveDependencies: (file, deps, { hostId }) =>
        /LoginPage/.test(hostId) && /(AccountHelpModal|SecondFactorStep)/.test(file) ? [] : deps,
    },
    // dist/.vite/manifest.json lets scripts/first-load.mjs measure the login page's first load.
    manifest: true,
    // The login first-load budget (200 KB gzip) is checked on the build report; keep the
    // warning meaningful for the lazily loaded screens too.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      // The back office (and /login) and the light public pages (decision 0068).
      input: { index: resolve(import.meta.dirname, 'index.html'), public: resolve(import.meta.dirname, 'public.html') },
      treeshake: {
        // Packages without a `sideEffects` flag whose modules have no import-time side effects:
        // without this, importing one export keeps the whole package. All of rc-form with its
        // validator (25 KB gzip, pulled in by Input's form context) was in the login page's
        // first load. (The contract declares `sideEffects: false` itself, and the web imports
        // only its plain part, @clearplay/contract/constants, which has no TypeBox.)
        moduleSideEffects: (id: string) => !SIDE_EFFECT_FREE.test(id),
      },
      output: {
        // React Router's chunk would be named after the folder of its production copy (above).
        chunkFileNames: (chunk) =>
          chunk.moduleIds.some((id) => /[\\/]react-router[\\/]dist[\\/]production[\\/]/.test(id)) && chunk.name === 'production'
            ? 'assets/react-router-[hash].js'
            : 'assets/[name]-[hash].js',
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
