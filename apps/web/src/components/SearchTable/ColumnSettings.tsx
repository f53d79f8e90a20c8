import { Button, Checkbox, Popover, Tooltip } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { move, type TablePrefs } from './column-prefs.ts';

/**
 * The column settings popover: a checkbox per column (show/hide), up/down to reorder,
 * "all" and "reset". The screen saves the result per user and table.
 */
export function ColumnSettings({
  titles,
  prefs,
  onChange,
  onReset,
}: {
  titles: Record<string, string>;
  prefs: TablePrefs;
  onChange: (prefs: TablePrefs) => void;
  onReset: () => void;
}) {
  const { t } = useTranslation();
  const hidden = new Set(prefs.hidden);
  const visibleCount = prefs.order.length - prefs.order.filter((k) => hidden.has(k)).length;
  const setHidden = (key: string, hide: boolean) =>
    onChange({ ...prefs, hidden: hide ? [...prefs.hidden, key] : prefs.hidden.filter((k) => k !== key) });

  const content = (
    <div className="search-table-columns" data-testid="column-settings">
      <div className="search-table-columns-head">
        <Checkbox
          checked={visibleCount === prefs.order.length}
          indeterminate={visibleCount > 0 && visibleCount < prefs.order.length}
          onChange={(e) => onChange({ ...prefs, hidden: e.target.checked ? [] : prefs.order.slice(1) })}
        >
          {t('table.columns.all')}
        </Checkbox>
        <Button type="link" size="small" onClick={onReset}>
          {t('table.columns.reset')}
        </Button>
      </div>
      <ul>
        {prefs.order.map((key, index) => (
          <li key={key}>
            <Checkbox
              checked={!hidden.has(key)}
              // At least one column stays.
              disabled={!hidden.has(key) && visibleCount === 1}
              onChange={(e) => setHidden(key, !e.target.checked)}
              data-testid={`column-toggle-${key}`}
            >
              {titles[key] ?? key}
            </Checkbox>
            <span className="search-table-columns-move">
              <Button
                type="text"
                size="small"
                icon={<ArrowUpOutlined />}
                disabled={index === 0}
                aria-label={t('table.columns.up')}
                onClick={() => onChange({ ...prefs, order: move(prefs.order, key, -1) })}
              />
              <Button
                type="text"
                size="small"
                icon={<ArrowDownOutlined />}
                disabled={index === prefs.order.length - 1}
                aria-label={t('table.columns.down')}
                onClick={() => onChange({ ...prefs, order: move(prefs.order, key, 1) })}
              />
            </span>
          </li>
        ))}
      </ul>
    </div>
  );

  return (
    <Popover trigger="click" placement="bottomRight" title={t('table.columns')} content={content}>
      <Tooltip title={t('table.columns')}>
        <Button type="text" icon={<SettingOutlined />} aria-label={t('table.columns')} data-testid="table-columns" />
      </Tooltip>
    </Popover>
  );
}
