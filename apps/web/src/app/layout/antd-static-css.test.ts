import { beforeAll, describe, expect, it } from 'vitest';
import { extractAntdCss } from '../../../antd-static-css.ts';

// The build's static antd stylesheet (decision 0120), which the signed-in screens' zero-runtime
// mode relies on: a part missing from it would show unstyled there (a Layout.Sider without its
// trigger was the first one found).
describe('antd static stylesheet', () => {
  let css = '';
  beforeAll(() => {
    css = extractAntdCss();
  }, 120_000);

  it('has the parts that register their styles only when rendered inside their parent', () => {
    for (const selector of [
      '.ant-layout-sider-trigger',
      '.ant-form-item-label',
      '.ant-form-item-explain-error',
      '.ant-cascader-panel',
      '.ant-space-compact',
      '.ant-space-addon',
      '.ant-modal-confirm',
      '.ant-message-notice',
      '.ant-notification-notice',
      '.ant-input-search',
      '.ant-otp',
      '.ant-ribbon',
      '.ant-tag-blue',
      '.ant-table-filter-dropdown',
      '.ant-select-dropdown',
      '.ant-picker-dropdown',
      '.ant-dropdown-menu-item',
      '.ant-menu-submenu-popup',
      '.ant-tooltip',
      '.ant-wave',
    ]) {
      expect(css, selector).toContain(selector);
    }
  });

  it('is unhashed, names the tokens by CSS variable only, and carries no page-only marker', () => {
    expect(css).not.toContain(':where(.css-');
    expect(css).not.toMatch(/\.css-var-/);
    expect(css).not.toContain('data-ant-cssinjs-cache-path');
    expect(css).toContain('var(--ant-color-primary)');
  });
});
