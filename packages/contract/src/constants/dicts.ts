export const LIST_CLASSES = ['default', 'primary', 'success', 'info', 'warning', 'danger'] as const;
