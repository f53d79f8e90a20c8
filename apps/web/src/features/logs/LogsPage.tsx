import { useState } from 'react';
import { Button, Tag, Tooltip } from 'antd';
import { EyeOutlined } from '@ant-design/icons';
import type { LogItem } from '@clearplay/contract';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader.tsx';
import { SearchTable, type SearchTableColumn } from '../../components/SearchTable/index.ts';
import { getLogs, logListQueryKey } from './api/logs.ts';
import { LogDetailDrawer } from './components/LogDetailDrawer.tsx';
import './logs.css';
import { formatDate } from '../../lib/date.ts';
import { actionWord, LOG_ACTIONS, LOG_MODULES, moduleWord } from './log-words.ts';

/** The operation log: every change, who, when, from where, and how it ended. */
export default function LogsPage() {
  const { t } = useTranslation();
  const [detail, setDetail] = useState<number | null>(null);

  const columns: SearchTableColumn<LogItem>[] = [
    {
      key: 'module',
      title: t('log.field.module'),
      width: 110,
      search: { type: 'select', options: LOG_MODULES.map((m) => ({ value: m, label: moduleWord(t, m) })) },
      render: (_, l) => moduleWord(t, l.module),
    },
    {
      key: 'action',
      title: t('log.field.action'),
      width: 130,
      search: { type: 'select', options: LOG_ACTIONS.map((a) => ({ value: a, label: actionWord(t, a) })) },
      render: (_, l) => actionWord(t, l.action),
    },
    {
      key: 'content',
      title: t('log.field.content'),
      // Narrower than the house table's 200 px least: every column fits beside it at 1440 px, none under the pinned actions.
      minWidth: 160,
      ellipsis: { showTitle: false },
      render: (_, l) => (
        <Tooltip title={l.content} placement="topLeft">
          <span>{l.content}</span>
        </Tooltip>
      ),
    },
    { key: 'operator', title: t('log.field.operator'), width: 120, search: { type: 'input' } },
    {
      key: 'status',
      title: t('log.field.status'),
      width: 90,
      search: {
        type: 'select',
        options: [
          { value: 'success', label: t('log.status.success') },
          { value: 'failed', label: t('log.status.failed') },
        ],
        showSearch: false,
      },
      render: (_, l) => (
        <Tooltip title={l.status === 'failed' ? l.errorMsg : undefined}>
          <Tag color={l.status === 'success' ? 'success' : 'error'}>{t(`log.status.${l.status}`)}</Tag>
        </Tooltip>
      ),
    },
    { key: 'ip', title: t('log.field.ip'), width: 130 },
    {
      key: 'createTime',
      title: t('log.field.createTime'),
      width: 170,
      search: { type: 'dateRange', names: ['startTime', 'endTime'], showTime: true },
      render: (_, l) => formatDate(l.createTime),
    },
    {
      key: 'durationMs',
      title: t('log.field.durationMs'),
      width: 100,
      align: 'right',
      render: (_, l) => t('log.durationValue', { ms: l.durationMs }),
    },
    {
      key: 'request',
      title: t('log.field.request'),
      width: 240,
      defaultHidden: true,
      ellipsis: true,
      render: (_, l) => `${l.method} ${l.path}`,
    },
    {
      key: 'actions',
      title: t('common.actions'),
      width: 90,
      fixed: 'right',
      render: (_, l) => (
        <Button type="link" size="small" icon={<EyeOutlined />} onClick={() => setDetail(l.id)} data-testid={`log-detail-${l.id}`}>
          {t('log.detail')}
        </Button>
      ),
    },
  ];

  return (
    <>
      <PageHeader description={t('page.log.description')} />
      <SearchTable<LogItem>
        tableId="system-log"
        rowKey="id"
        columns={columns}
        queryKey={logListQueryKey}
        fetcher={(params, signal) => getLogs(params, signal)}
        title={t('log.list')}
        defaultExpanded
        data-testid="log-table"
      />
      <LogDetailDrawer id={detail} onClose={() => setDetail(null)} />
    </>
  );
}
