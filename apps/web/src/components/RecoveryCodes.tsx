import { useState } from 'react';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The ten recovery codes of a new second factor, shown once (only their hashes are kept,
 * decision 0091), with a button that copies them all.
 */
export function RecoveryCodes({ codes }: { codes: readonly string[] }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="recovery-codes" data-testid="recovery-codes">
      <p className="recovery-codes-note">{t('secondFactor.recoveryCodes.note')}</p>
      <ol
        style={{
          // The numbers inside each item's box (an outside marker hung into the gap and ran over
          // the code of the column before it), two columns where 10em each fit, else one.
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fill, minmax(10em, 1fr))',
          gap: '4px 24px',
          listStylePosition: 'inside',
          padding: '8px 0',
          margin: 0,
          fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
          fontSize: 15,
        }}
      >
        {codes.map((code) => (
          <li key={code} data-testid="recovery-code">
            {code}
          </li>
        ))}
      </ol>
      <Button onClick={() => void copy()} data-testid="recovery-codes-copy">
        {copied ? t('secondFactor.recoveryCodes.copied') : t('secondFactor.recoveryCodes.copy')}
      </Button>
    </div>
  );
}
