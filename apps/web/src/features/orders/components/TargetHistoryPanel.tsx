import { Alert, Card, Flex, Space, Spin, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { WarningFilled } from '@ant-design/icons';
import type { HistoryRecord, OrderHistory, OrderItem } from '@clearplay/contract';
import { ORDER_DICTS } from '@clearplay/contract/constants';
import { useTranslation } from 'react-i18next';
import { DictTag, DictText, findDictEntry } from '../../../components/DictTag.tsx';
import { useDictData } from '../../../lib/dicts.ts';
import { formatOrderTime } from '../format.ts';

const RESULT_KEYS = ['1', '3', '2', '0'] as const;

function RecordTable({ records, testId }: { records: HistoryRecord[]; testId: string }) {
  const { t } = useTranslation();
  const staff = records.some((r) => r.userName !== null);
  const columns: TableColumnsType<HistoryRecord> = [
    { key: 'createdTime', title: t('history.col.date'), dataIndex: 'createdTime', render: (v: string) => formatOrderTime(v), width: 140 },
    // A chat ID and a MAC are one word each: whole, on one line; the table scrolls sideways when
    // the panel is narrower than its rows.
    {
      key: 'objWechat',
      title: t('order.field.objWechat'),
      dataIndex: 'objWechat',
      render: (v: string) => <span className="one-word">{v}</span>,
    },
    {
      key: 'gameName',
      title: t('order.field.gameName'),
      dataIndex: 'gameName',
      ellipsis: true,
      render: (value: string) => <DictText type={ORDER_DICTS.game} value={value} />,
    },
    {
      key: 'result',
      title: t('order.field.result'),
      dataIndex: 'result',
      render: (v: number) => <DictTag type={ORDER_DICTS.result} value={v} />,
      width: 90,
    },
    {
      key: 'mac',
      title: t('order.field.mac'),
      dataIndex: 'mac',
      render: (v: string) => (
        <Typography.Text code className="one-word">
          {v}
        </Typography.Text>
      ),
    },
    ...(staff
      ? [
          { key: 'userName', title: t('order.field.userName'), dataIndex: 'userName', ellipsis: true },
          { key: 'inspectorName', title: t('order.field.inspectorName'), dataIndex: 'inspectorName', ellipsis: true },
        ]
      : []),
  ];
  return (
    <Table<HistoryRecord>
      size="small"
      rowKey="id"
      columns={columns}
      dataSource={records}
      scroll={{ x: 'max-content' }}
      pagination={records.length > 5 ? { pageSize: 5, size: 'small', showSizeChanger: false } : false}
      data-testid={testId}
    />
  );
}

/**
 * What the service remembers of a target: the latest cheating or suspicious result
 * standing out, the earlier results by kind, the other chat IDs of the machine typed (or, with
 * only the chat ID, of the machines its records were made on), and the records
 * themselves. It informs only: nothing here blocks saving.
 */
export function TargetHistoryPanel({ history, loading }: { history: OrderHistory | undefined; loading: boolean }) {
  const { t } = useTranslation();
  const results = useDictData(ORDER_DICTS.result);
  const games = useDictData(ORDER_DICTS.game);
  if (history === undefined)
    return loading ? (
      <Card size="small" data-testid="history-panel">
        <Spin size="small" /> {t('history.loading')}
      </Card>
    ) : null;
  const { summary } = history;
  const flagged = summary.latestFlagged;
  const earlier = history.sameTarget.length;
  // Only the chat ID typed: the machines are those its records were made on, maybe several.
  const byChatIdAlone = history.mac === null;
  const resultLabel = (value: number) => findDictEntry(results, value)?.label ?? String(value);
  return (
    <Card
      size="small"
      title={
        <Space>
          {t('history.title')}
          {loading ? <Spin size="small" /> : null}
        </Space>
      }
      data-testid="history-panel"
      style={{ marginBottom: 16 }}
    >
      <Flex vertical gap={8}>
        {flagged !== null ? (
          <Alert
            type={flagged.result === 1 ? 'error' : 'warning'}
            showIcon
            data-testid="history-flagged"
            title={t('history.flagged', {
              result: resultLabel(flagged.result),
              date: formatOrderTime(flagged.createdTime),
              game: findDictEntry(games, flagged.gameName)?.label ?? flagged.gameName,
              mac: flagged.mac,
            })}
          />
        ) : null}
        {summary.otherChatIds.length > 0 ? (
          <Alert
            type="warning"
            showIcon
            data-testid="history-other-chat-ids"
            title={t(byChatIdAlone ? 'history.otherChatIdsOfTarget' : 'history.otherChatIds', { count: summary.otherChatIds.length })}
            description={
              <Flex wrap gap={4}>
                {summary.otherChatIds.map((id) => (
                  <Tag key={id}>{id}</Tag>
                ))}
              </Flex>
            }
          />
        ) : null}
        {history.objWechat !== null ? (
          earlier === 0 ? (
            <Typography.Text type="secondary" data-testid="history-none">
              {t('history.none')}
            </Typography.Text>
          ) : (
            <>
              <Flex wrap gap={8} align="center" data-testid="history-counts">
                <Typography.Text strong>{t('history.earlier')}</Typography.Text>
                {RESULT_KEYS.filter((k) => summary.byResult[k] > 0).map((k) => (
                  <span key={k}>
                    <DictTag type={ORDER_DICTS.result} value={Number(k)} /> × {summary.byResult[k]}
                  </span>
                ))}
                {summary.previousMac !== null ? (
                  <Typography.Text type="secondary">
                    {t('history.previousMac')} <Typography.Text code>{summary.previousMac}</Typography.Text>
                  </Typography.Text>
                ) : null}
              </Flex>
              <RecordTable records={history.sameTarget} testId="history-same-target" />
            </>
          )
        ) : null}
        {history.sameMachine.length > 0 ? (
          <>
            <Typography.Text strong>{t(byChatIdAlone ? 'history.sameMachines' : 'history.sameMachine')}</Typography.Text>
            <RecordTable records={history.sameMachine} testId="history-same-machine" />
          </>
        ) : null}
      </Flex>
    </Card>
  );
}

/** The list's chat ID, marked when the target was caught cheating before (as the reader may see). */
export function RepeatTargetMark({ order }: { order: OrderItem }) {
  const { t } = useTranslation();
  // On one line: a chat ID is one word, and its column grows to fit it (decision 0090).
  if (order.repeatTarget !== true) return <span className="one-word">{order.objWechat}</span>;
  return (
    <Tooltip title={t('history.repeatMarker')}>
      <span data-testid={`order-repeat-${order.code}`} className="one-word">
        <WarningFilled style={{ color: 'var(--ant-color-error, #ff4d4f)', marginInlineEnd: 4 }} aria-label={t('history.repeatMarker')} />
        {order.objWechat}
      </span>
    </Tooltip>
  );
}
