import { Button, Col, DatePicker, Form, Grid, Input, Row, Select, Space, type FormInstance } from 'antd';
import { DownOutlined, ReloadOutlined, SearchOutlined, UpOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { DictSelect } from '../DictSelect.tsx';
import { UserSelect } from '../UserSelect.tsx';
import type { SearchFieldDef } from './search-params.ts';
import { datePickerFormat } from '../../lib/date.ts';

/** Fields per row by screen width (24-column grid). */
function usePerRow(): number {
  const screens = Grid.useBreakpoint();
  if (screens.xxl) return 4;
  if (screens.lg) return 3;
  if (screens.md) return 2;
  return 1;
}

/** Form.Item hands its child id, value and onChange: passed on to the control. */
// The value and onChange types differ per control; the form passes what that control emits.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ControlProps = { id?: string; value?: any; onChange?: (...args: any[]) => void };

function FieldControl({ def, ...control }: { def: SearchFieldDef } & ControlProps) {
  const { t } = useTranslation();
  const { field, label } = def;
  const enter = t('search.placeholder.input', { label });
  const choose = t('search.placeholder.select', { label });
  switch (field.type) {
    case 'input':
      return <Input allowClear placeholder={field.placeholder ?? enter} {...control} />;
    case 'select':
      return (
        <Select
          allowClear
          placeholder={field.placeholder ?? choose}
          options={field.options.map((o) => ({ ...o, value: o.value as string | number }))}
          showSearch={field.showSearch === false ? false : { optionFilterProp: 'label' }}
          {...control}
        />
      );
    case 'dict':
      return <DictSelect type={field.dictType} numeric={field.numeric} placeholder={field.placeholder ?? choose} {...control} />;
    case 'dateRange':
      return (
        <DatePicker.RangePicker
          style={{ width: '100%' }}
          showTime={field.showTime ? { format: 'HH:mm' } : undefined}
          format={datePickerFormat(field.showTime ? 'minute' : 'day')}
          allowEmpty={[false, false]}
          {...control}
        />
      );
    case 'user':
      return <UserSelect roleName={field.roleName} valueKey={field.valueKey} placeholder={field.placeholder ?? choose} {...control} />;
  }
}

/**
 * The search form of SearchTable: a grid of fields; collapsed it shows the first row only
 * (the buttons take the row's last place), "expand" shows all. Search and reset.
 */
export function SearchForm({
  name,
  form,
  fields,
  collapsed,
  onToggle,
  onSearch,
  onReset,
  loading,
}: {
  /** The form's name: its field ids are `<name>_<field>`. */
  name: string;
  form: FormInstance;
  fields: readonly SearchFieldDef[];
  collapsed: boolean;
  onToggle: () => void;
  onSearch: () => void;
  onReset: () => void;
  loading: boolean;
}) {
  const { t } = useTranslation();
  const perRow = usePerRow();
  const span = 24 / perRow;
  const collapsible = fields.length > perRow - 1;
  const shown = collapsed && collapsible ? Math.max(perRow - 1, 1) : fields.length;
  // The buttons take the last place of the last row.
  const used = shown % perRow;
  const offset = used === perRow - 1 ? 0 : (perRow - 1 - used) * span;
  const labelWidth = 96;

  return (
    <Form name={name} form={form} className="search-table-form" onFinish={onSearch} labelCol={{ flex: `${labelWidth}px` }} labelWrap>
      <Row gutter={[16, 0]}>
        {fields.map((def, index) => (
          <Col key={def.name} span={span} style={index >= shown ? { display: 'none' } : undefined}>
            <Form.Item name={def.name} label={def.label}>
              <FieldControl def={def} />
            </Form.Item>
          </Col>
        ))}
        <Col span={perRow === 1 ? 24 : span} offset={perRow === 1 ? 0 : offset} style={{ textAlign: 'right' }}>
          <Form.Item>
            <Space wrap>
              <Button type="primary" htmlType="submit" icon={<SearchOutlined />} loading={loading} data-testid="search-submit">
                {t('search.search')}
              </Button>
              <Button icon={<ReloadOutlined />} onClick={onReset} data-testid="search-reset">
                {t('search.reset')}
              </Button>
              {collapsible ? (
                <Button type="link" onClick={onToggle} data-testid="search-toggle" style={{ paddingInline: 4 }}>
                  {collapsed ? t('search.expand') : t('search.collapse')}
                  {collapsed ? <DownOutlined /> : <UpOutlined />}
                </Button>
              ) : null}
            </Space>
          </Form.Item>
        </Col>
      </Row>
    </Form>
  );
}
