import { useState } from 'react';
import { Button } from 'antd';
import { WalletOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { can, useActor } from '../../../lib/permissions.ts';
import { LedgerDrawer } from './LedgerDrawer.tsx';

/** Toolbar button "Shop balances" opening the ledger drawer; shown only with user:ledger. */
export function LedgerButton() {
  const { t } = useTranslation();
  const actor = useActor();
  const [open, setOpen] = useState(false);
  if (!can(actor, 'user:ledger')) return null;
  return (
    <>
      <Button icon={<WalletOutlined />} onClick={() => setOpen(true)} data-testid="ledger-open">
        {t('ledger.button')}
      </Button>
      <LedgerDrawer open={open} onClose={() => setOpen(false)} />
    </>
  );
}
