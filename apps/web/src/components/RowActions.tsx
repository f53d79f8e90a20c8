import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { App, Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Permission as PermissionString } from '@clearplay/contract';
import { useConfirmDelete } from './confirm.ts';
import { useVisible } from './Permission.tsx';

/** The row's edit action, the same on every list screen; hidden without `permission`. */
export function EditButton({ onClick, testId, permission }: { onClick: () => void; testId?: string; permission?: PermissionString }) {
  const { t } = useTranslation();
  const visible = useVisible({ permissions: permission ? [permission] : [] });
  if (!visible) return null;
  return (
    <Button type="link" size="small" icon={<EditOutlined />} onClick={onClick} data-testid={testId}>
      {t('common.edit')}
    </Button>
  );
}

/**
 * The row's delete action: the spec's confirm text, then `onDelete`, then the success toast
 * (failures are already shown by the API client). With `disabledReason` the button is
 * disabled and the reason shows as its tooltip. Hidden without `permission`.
 */
export function DeleteButton({
  onDelete,
  successMessage,
  disabledReason = null,
  testId,
  permission,
}: {
  onDelete: () => Promise<unknown>;
  successMessage?: string;
  disabledReason?: string | null;
  testId?: string;
  permission?: PermissionString;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const confirmDelete = useConfirmDelete();
  const visible = useVisible({ permissions: permission ? [permission] : [] });
  if (!visible) return null;
  const button = (
    <Button
      type="link"
      size="small"
      danger
      icon={<DeleteOutlined />}
      disabled={disabledReason !== null}
      data-testid={testId}
      onClick={() =>
        confirmDelete(async () => {
          await onDelete();
          void message.success(successMessage ?? t('feedback.delete.success'));
        })
      }
    >
      {t('common.delete')}
    </Button>
  );
  return disabledReason === null ? button : <Tooltip title={disabledReason}>{button}</Tooltip>;
}
