import { InputNumber, type InputNumberProps } from 'antd';
import { formatFen } from '../lib/money.ts';

/** An amount in fen shown as CNY with two decimals ('¥12.50'), digits aligned. */
export function Money({ fen, strong = false }: { fen: number | null | undefined; strong?: boolean }) {
  const text = formatFen(fen);
  return (
    <span className="money" style={{ fontVariantNumeric: 'tabular-nums', fontWeight: strong ? 600 : undefined }}>
      {text || '-'}
    </span>
  );
}

/** An amount edited in yuan (two decimals); convert with `yuanToFen` when submitting. */
export function MoneyInput(props: Omit<InputNumberProps<number>, 'precision' | 'prefix'>) {
  return <InputNumber<number> min={0} max={1_000_000} step={1} precision={2} prefix="¥" style={{ width: '100%' }} {...props} />;
}
