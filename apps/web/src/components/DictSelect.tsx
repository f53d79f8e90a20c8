import { Select, type SelectProps } from 'antd';
import { useDictData } from '../lib/dicts.ts';
import { ListClassTag } from './DictTag.tsx';

export interface DictSelectProps extends Omit<SelectProps, 'options' | 'value' | 'onChange'> {
  /** The dictionary type code, e.g. 'common_status'. */
  type: string;
  value?: string | number | null;
  onChange?: (value: string | number | undefined) => void;
  /** The field holds numbers (status 0/1, flags): values are converted both ways. */
  numeric?: boolean;
  /** Show each option as its coloured tag instead of plain text. */
  tags?: boolean;
}

/**
 * A select over the enabled entries of a dictionary type, read from the dictionary store,
 * in the dictionary's sort order. Works as an antd Form control.
 */
export function DictSelect({ type, value, onChange, numeric = false, tags = false, ...rest }: DictSelectProps) {
  const entries = useDictData(type);
  const options = entries.map((entry) => ({
    value: entry.value,
    label: tags ? <ListClassTag label={entry.label} listClass={entry.listClass} /> : entry.label,
    title: entry.label,
  }));
  return (
    <Select
      allowClear
      showSearch={{ optionFilterProp: 'title' }}
      {...rest}
      options={options}
      value={value === null || value === undefined || value === '' ? undefined : String(value)}
      onChange={(next: string | undefined) => {
        if (next === undefined || next === null) onChange?.(undefined);
        else onChange?.(numeric ? Number(next) : next);
      }}
    />
  );
}
