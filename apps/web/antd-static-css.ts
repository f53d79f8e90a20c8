import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type * as CssInJs from '@ant-design/cssinjs';
import type * as Antd from 'antd';
import type * as ReactNs from 'react';
import type * as ReactDomServer from 'react-dom/server';
import type { Plugin } from 'vite';

/**
 * antd's component styles as a static stylesheet, for the signed-in screens' zero-runtime mode
 * (decision 0120): the build renders every antd component once in Node (as antd's own
 * scripts/build-style.tsx makes dist/antd.css), unhashed, extracts the CSS its CSS-in-JS
 * generated, and writes it to dist/assets/antd-<hash>.css. The app learns its address from
 * `import.meta.env.ANTD_STYLESHEET` (undefined in development and tests: antd then generates
 * its styles at run time, as before).
 *
 * The styles refer to the design tokens through CSS variables only (`var(--ant-…)`), which antd
 * still sets at run time in zero-runtime mode, so the dark algorithm and the chosen theme colour
 * apply as before: the build fails if the light default and a dark, recoloured theme do not give
 * the same text.
 */
export function antdStaticCss(): Plugin {
  let css = '';
  let fileName = '';
  return {
    name: 'clearplay:antd-static-css',
    apply: 'build',
    config(_config, env) {
      // The prerender's SSR build has no configuration file and so not this plugin.
      if (env.isSsrBuild) return;
      css = extractAntdCss();
      fileName = `assets/antd-${createHash('sha256').update(css).digest('base64url').slice(0, 8)}.css`;
      return { define: { 'import.meta.env.ANTD_STYLESHEET': JSON.stringify(`/${fileName}`) } };
    },
    generateBundle() {
      if (css) this.emitFile({ type: 'asset', fileName, source: css });
    },
  };
}

type AnyComponent = (props: Record<string, unknown>) => unknown;

/** antd's CSS for every component, unhashed: what zero-runtime mode expects in the page. */
export function extractAntdCss(): string {
  // antd's CommonJS build in this process (the app's bundle is the ES one: the same styles).
  const require = createRequire(import.meta.url);
  const React = require('react') as typeof ReactNs;
  const { renderToString } = require('react-dom/server') as typeof ReactDomServer;
  const antd = require('antd') as Record<string, unknown> & typeof Antd;
  const cssinjs = require('@ant-design/cssinjs') as typeof CssInJs;
  const h = React.createElement as (type: unknown, props?: Record<string, unknown> | null, ...children: unknown[]) => unknown;
  const fragment = (...children: unknown[]) => h(React.Fragment, null, ...children);
  const part = (component: unknown, name: string) => (component as Record<string, unknown>)[name];
  // Components that need children or props to render their parts (after antd's build-style.tsx).
  const renders: Record<string, (component: AnyComponent) => unknown> = {
    Affix: (C) => h(C, null, h('div')),
    Cascader: (C) => fragment(h(C), h(part(C, 'Panel'))),
    Badge: (C) => fragment(h(C), h(part(C, 'Ribbon'))),
    Dropdown: (C) => h(C, { menu: { items: [] } }, h('div')),
    // A form item's own styles (its fallback component) come with an item only.
    Form: (C) => h(C, null, h(part(C, 'Item'), null, h(antd.Input))),
    Input: (C) => fragment(h(C), h(part(C, 'Search')), h(part(C, 'TextArea')), h(part(C, 'Password')), h(part(C, 'OTP'))),
    Layout: (C) => fragment(h(C), h(part(C, 'Sider'))),
    Menu: (C) => h(C, { items: [] }),
    Modal: (C) => {
      const panel = part(C, '_InternalPanelDoNotUseOrYouWillBeFired');
      return fragment(h(C), h(panel), h(panel, { type: 'confirm' }));
    },
    QRCode: (C) => h(C, { value: 'https://example.com' }),
    Space: (C) => fragment(h(C), h(part(C, 'Compact'), null, h(antd.Button), h(part(C, 'Addon'), null, 'addon'))),
    Tag: (C) => fragment(h(C, { color: 'blue' }, 'tag'), h(C, { color: 'success' }, 'tag')),
    Tree: (C) => h(C, { treeData: [] }),
    message: (m) => h(part(m, '_InternalPanelDoNotUseOrYouWillBeFired')),
    notification: (n) => h(part(n, '_InternalPanelDoNotUseOrYouWillBeFired')),
  };
  const skipped = new Set(['ConfigProvider', 'Grid']);
  const names = Object.keys(antd).filter(
    (name) => !skipped.has(name) && (/^[A-Z]/.test(name) || name === 'message' || name === 'notification'),
  );
  const extract = (theme: Record<string, unknown>): string => {
    const cache = cssinjs.createCache();
    const nodes = names.map((name) => {
      const component = antd[name] as AnyComponent;
      return h(React.Fragment, { key: name }, renders[name] ? renders[name](component) : h(component));
    });
    renderToString(h(cssinjs.StyleProvider, { cache }, h(antd.ConfigProvider, { theme }, ...nodes)) as never);
    return cssinjs.extractStyle(cache, { plain: true, types: 'style' });
  };
  const light = extract({ hashed: false });
  const dark = extract({
    hashed: false,
    algorithm: antd.theme.darkAlgorithm,
    token: { colorPrimary: '#722ed1', colorLink: '#722ed1', colorInfo: '#722ed1', colorPrimaryBg: '#2a1a3f' },
  });
  if (light !== dark)
    throw new Error('antd-static-css: the styles depend on the theme; zero-runtime mode would not follow it (decision 0120)');
  // The cache-path marker is for a page's inline styles, not a stylesheet.
  return light.replace(/\.data-ant-cssinjs-cache-path\{[^}]*\}/g, '');
}
