/**
 * antd's static stylesheet for the signed-in screens' zero-runtime mode (decision 0120): the
 * build writes it (antd-static-css.ts) and names it in `import.meta.env.ANTD_STYLESHEET`. Asked
 * for with the layout's code (app/signed-in-screens.ts), so the login form's warm-up at the
 * click requests it beside the chunks. Put first in <head>, where antd's run-time styles go, so
 * the app's own stylesheets still come after antd's and win at equal specificity.
 */
const href = import.meta.env.ANTD_STYLESHEET;

let loaded = false;
let loading: Promise<void> | undefined;

/** Resolves once the stylesheet has loaded or failed (then antd keeps generating its styles). */
export function loadAntdStylesheet(): Promise<void> {
  if (!href || typeof document === 'undefined') return Promise.resolve();
  loading ??= new Promise<void>((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    link.onload = () => {
      loaded = true;
      resolve();
    };
    link.onerror = () => {
      link.remove();
      resolve();
    };
    document.head.prepend(link);
  });
  return loading;
}

/** True once the stylesheet is in the page: the layout may turn antd's zero-runtime mode on. */
export const antdStylesheetLoaded = (): boolean => loaded;
