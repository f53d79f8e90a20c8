export { LedgerButton } from './components/LedgerButton.tsx';
export { LedgerDrawer, type LedgerShop } from './components/LedgerDrawer.tsx';
export { ledgerKeys, useLedger, useRecharge } from './api/ledger.ts';
export { ledgerColumns, type LedgerRow } from './components/ledger-columns.tsx';
