import { Alert, Descriptions, Drawer, Skeleton, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLogDetail } from '../api/logs.ts';
import { formatDate } from '../../../lib/date.ts';
import { actionWord, moduleWord } from '../log-words.ts';

/** The payload as indented JSON when it is JSON (a cut payload is shown as it came). */
export function prettyPayload(payload: string): string {
  if (!payload) return '';
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

/** Every field of one log entry, the request payload pretty-printed and the error message. */
export function LogDetailDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const detail = useLogDetail(id);
  const log = detail.data;
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      size={640}
      title={t('log.detail.title', { id: id ?? '' })}
      destroyOnHidden
      data-testid="log-detail"
    >
      {!log ? (
        <Skeleton active />
      ) : (
        <>
          {log.status === 'failed' && log.errorMsg ? (
            <Alert type="error" showIcon style={{ marginBottom: 16 }} title={t('log.field.errorMsg')} description={log.errorMsg} />
          ) : null}
          <Descriptions
            bordered
            size="small"
            column={1}
            styles={{ label: { width: 130 } }}
            items={[
              { key: 'module', label: t('log.field.module'), children: moduleWord(t, log.module) },
              { key: 'action', label: t('log.field.action'), children: actionWord(t, log.action) },
              { key: 'content', label: t('log.field.content'), children: log.content },
              {
                key: 'status',
                label: t('log.field.status'),
                children: <Tag color={log.status === 'success' ? 'success' : 'error'}>{t(`log.status.${log.status}`)}</Tag>,
              },
              {
                key: 'operator',
                label: t('log.field.operator'),
                children: log.operatorId ? `${log.operator} (#${log.operatorId})` : log.operator || '-',
              },
              { key: 'ip', label: t('log.field.ip'), children: log.ip || '-' },
              { key: 'createTime', label: t('log.field.createTime'), children: formatDate(log.createTime) },
              { key: 'durationMs', label: t('log.field.durationMs'), children: t('log.durationValue', { ms: log.durationMs }) },
              {
                key: 'request',
                label: t('log.field.request'),
                children: (
                  <Typography.Text code>
                    {log.method} {log.path}
                  </Typography.Text>
                ),
              },
              {
                key: 'userAgent',
                label: t('log.field.userAgent'),
                children: <span style={{ wordBreak: 'break-all' }}>{log.userAgent || '-'}</span>,
              },
              { key: 'errorMsg', label: t('log.field.errorMsg'), children: log.errorMsg || '-' },
              {
                key: 'payload',
                label: t('log.field.payload'),
                children: log.payload ? (
                  <pre className="log-payload" data-testid="log-payload">
                    {prettyPayload(log.payload)}
                  </pre>
                ) : (
                  '-'
                ),
              },
            ]}
          />
        </>
      )}
    </Drawer>
  );
}
