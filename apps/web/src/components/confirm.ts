import { App } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * Spec §8 confirm texts: 'This action cannot be undone. Are you sure you want to delete?'
 * (one record) and 'Are you sure you want to delete the selected items?' (a selection).
 * `onOk` may return a promise: the OK button spins until it settles; its failure is caught here.
 * Returns nothing: the dialog's handle is thenable, and a click handler must not hand it back.
 */
export function useConfirmDelete() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  return (onOk: () => Promise<unknown> | void, options: { batch?: boolean; title?: string } = {}): void => {
    modal.confirm({
      title: options.title ?? t('confirm.delete.title'),
      content: options.batch ? t('confirm.deleteSelected') : t('confirm.delete'),
      okText: t('common.delete'),
      okButtonProps: { danger: true, 'data-testid': 'confirm-ok' } as never,
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await onOk();
        } catch {
          // the API client already showed why; the dialog closes
        }
      },
    });
  };
}
