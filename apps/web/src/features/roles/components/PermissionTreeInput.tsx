import { Tree } from 'antd';
import { useTranslation } from 'react-i18next';
import { permissionTreeData, toPermissions } from '../permission-tree.ts';
import '../roles.css';

/** The permissions of a role edited as a checkable tree (a Form control: value = permission strings). */
export function PermissionTreeInput({
  value,
  onChange,
  disabled,
}: {
  value?: string[];
  onChange?: (value: string[]) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const treeData = permissionTreeData(t);
  return (
    <div className="permission-tree" data-testid="permission-tree">
      <Tree
        checkable
        selectable={false}
        defaultExpandAll
        disabled={disabled}
        treeData={treeData}
        checkedKeys={value ?? []}
        onCheck={(checked) => onChange?.(toPermissions(Array.isArray(checked) ? checked : checked.checked))}
      />
    </div>
  );
}
