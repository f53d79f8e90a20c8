import { InputNumber, type InputNumberProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '@clearplay/contract/constants';

/**
 * An amount in fen in the one money format (the contract's formatMoney: '¥1,234.50', in the
 * reader's language), digits aligned. `signed`: a
 * ledger movement, '+' and green when money comes in, red when it goes out.
 */
export function Money({ fen, strong = false, signed = false }: { fen: number | null | undefined; strong?: boolean; signed?: boolean }) {
  const { i18n } = useTranslation();
  const text = formatMoney(fen, i18n.language);
  const value = fen ?? 0;
  const color = !signed ? undefined : value > 0 ? 'var(--ant-color-success)' : value < 0 ? 'var(--ant-color-error)' : undefined;
  return (
    <span className="money" style={{ color, fontVariantNumeric: 'tabular-nums', fontWeight: strong ? 600 : undefined }}>
      {signed && value > 0 ? '+' : ''}
      {text || '-'}
    </span>
  );
}

/** An amount edited in yuan (two decimals); convert with `yuanToFen` when submitting. */
export function MoneyInput(props: Omit<InputNumberProps<number>, 'precision' | 'prefix'>) {
  return <InputNumber<number> min={0} max={1_000_000} step={1} precision={2} prefix="¥" style={{ width: '100%' }} {...props} />;
}
