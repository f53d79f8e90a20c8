import { useState } from 'react';
import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader.tsx';
import { DictDataTab } from './components/DictDataTab.tsx';
import { DictTypesTab } from './components/DictTypesTab.tsx';

/** Dictionary management: two tabs, types and data; a type's "view data" opens its data. */
export default function DictsPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'types' | 'data'>('types');
  const [typeCode, setTypeCode] = useState<string | null>(null);

  return (
    <>
      <PageHeader description={t('page.dict.description')} />
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as 'types' | 'data')}
        items={[
          {
            key: 'types',
            label: <span data-testid="dict-tab-types">{t('dict.tab.types')}</span>,
            children: (
              <DictTypesTab
                onViewData={(code) => {
                  setTypeCode(code);
                  setTab('data');
                }}
              />
            ),
          },
          {
            key: 'data',
            label: <span data-testid="dict-tab-data">{t('dict.tab.data')}</span>,
            children: <DictDataTab typeCode={typeCode} onTypeChange={setTypeCode} />,
          },
        ]}
      />
    </>
  );
}
