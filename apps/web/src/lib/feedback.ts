/**
 * Feedback outside React components (the API client): error toasts and the logged-out
 * dialog. The antd code behind them (message, Modal) is loaded on first use, so it is not
 * part of the login page's first load.
 */

/** Spec §8: error toasts stay 5 seconds. */
export const ERROR_TOAST_SECONDS = 5;

const ui = () => import('./feedback-ui.tsx');

export function toastError(content: string): void {
  ui()
    .then((module) => module.showErrorToast(content, ERROR_TOAST_SECONDS))
    .catch(() => console.error(content));
}

export async function showSessionEndedDialog(options: { onRelogin: () => Promise<void>; onClose: () => void }): Promise<void> {
  (await ui()).showSessionEndedDialog(options);
}
