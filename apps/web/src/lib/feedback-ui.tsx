import { ConfigProvider, Modal, message } from 'antd';
import { Provider as MotionProvider } from '@rc-component/motion';
import { i18n } from './i18n.ts';
import { appStore } from './settings.ts';
import { prefersReducedMotion, themeConfig } from './theme.ts';

/**
 * antd's static message and Modal.confirm, given the current theme through holderRender.
 * Loaded on demand by lib/feedback.ts.
 */
function applyTheme(): void {
  ConfigProvider.config({
    holderRender: (children) => (
      <MotionProvider motion={!prefersReducedMotion()}>
        <ConfigProvider theme={themeConfig(appStore.get())}>{children}</ConfigProvider>
      </MotionProvider>
    ),
  });
}

export function showErrorToast(content: string, seconds: number): void {
  applyTheme();
  void message.error({ content, duration: seconds });
}

/** Spec §4/§8: the "You have been logged out" confirm dialog with Re-Login. */
export function showSessionEndedDialog({ onRelogin, onClose }: { onRelogin: () => Promise<void>; onClose: () => void }): void {
  applyTheme();
  Modal.confirm({
    title: i18n.t('request.loggedOut.title'),
    content: i18n.t('request.loggedOut.content'),
    okText: i18n.t('request.loggedOut.relogin'),
    cancelText: i18n.t('request.loggedOut.cancel'),
    onOk: () => onRelogin(),
    afterClose: onClose,
  });
}
