import { TRACKED_EVENTS } from '@clearplay/contract/constants';
import { useState } from 'react';
import { Alert, App, Button, Checkbox, Flex, Modal, Progress, Space, Statistic, Table, Typography, Upload } from 'antd';
import { DownloadOutlined, FileExcelOutlined, InboxOutlined, UploadOutlined } from '@ant-design/icons';
import type { ImportRejectedRow, OrderImportResult } from '@clearplay/contract';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { resultPath } from '../pages/result-links.ts';
import { saveBlob } from '../../../lib/api-client.ts';
import { IMPORT_ACCEPT, downloadImportTemplate, isImportFile, rejectedRowsCsvBlob, useImportOrders } from '../api/import-orders.ts';
import { trackEvent } from '../../tracking/index.ts';
import { can, useActor } from '../../../lib/permissions.ts';
import { fileStamp } from '../../../lib/date.ts';

/**
 * The order screen's Batch import: a button opening the import dialog. Shown only with
 * order:import. `onImported` runs after an import that wrote rows (the order queries are
 * refreshed already).
 */
export function ImportButton({ onImported }: { onImported?(): void }) {
  const { t } = useTranslation();
  const actor = useActor();
  const [open, setOpen] = useState(false);
  if (!can(actor, 'order:import')) return null;
  return (
    <>
      <Button icon={<UploadOutlined />} onClick={() => setOpen(true)} data-testid="order-import">
        {t('orderIo.import')}
      </Button>
      {open ? <ImportModal onClose={() => setOpen(false)} onImported={onImported} /> : null}
    </>
  );
}

function ImportModal({ onClose, onImported }: { onClose: () => void; onImported?(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [keepValid, setKeepValid] = useState(false);
  const [templateLoading, setTemplateLoading] = useState(false);
  const [result, setResult] = useState<OrderImportResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const importing = useImportOrders();
  const navigate = useNavigate();
  const running = importing.isPending;

  const downloadTemplate = async () => {
    setTemplateLoading(true);
    try {
      await downloadImportTemplate(t('orderIo.import.template.fileName'));
    } catch {
      // the API client has shown the error
    } finally {
      setTemplateLoading(false);
    }
  };

  const submit = async () => {
    if (!file) return;
    setFailure(null);
    try {
      const answer = await importing.mutateAsync({ file, keepValid });
      setResult(answer);
      trackEvent(TRACKED_EVENTS.orderImport, { total: answer.total, imported: answer.imported });
      if (answer.imported > 0) onImported?.();
    } catch (error) {
      // The API client has toasted it; keep it on the dialog too, next to the file.
      setFailure(error instanceof Error ? error.message : t('orderIo.import.failed'));
    }
  };

  const again = () => {
    setResult(null);
    setFile(null);
    setFailure(null);
    importing.reset();
  };

  // The result page (server menu "result", decision 0064): the counts on a page of their own.
  const openResultPage = (answer: OrderImportResult) => {
    const counts = { from: 'import' as const, total: answer.total, imported: answer.imported, rejected: answer.rejected.length };
    onClose();
    void navigate(resultPath(answer.imported > 0 ? 'success' : 'fail', counts));
  };

  const footer = result
    ? [
        <Button key="page" onClick={() => openResultPage(result)} data-testid="order-import-result-page">
          {t('orderIo.import.resultPage')}
        </Button>,
        <Button key="again" onClick={again} data-testid="order-import-again">
          {t('orderIo.import.again')}
        </Button>,
        <Button key="close" type="primary" onClick={onClose} data-testid="order-import-close">
          {t('orderIo.import.close')}
        </Button>,
      ]
    : [
        <Button key="cancel" onClick={onClose} disabled={running}>
          {t('common.cancel')}
        </Button>,
        <Button
          key="submit"
          type="primary"
          icon={<UploadOutlined />}
          disabled={!file}
          loading={running}
          onClick={() => void submit()}
          data-testid="order-import-submit"
        >
          {t('orderIo.import.submit')}
        </Button>,
      ];

  return (
    <Modal
      open
      title={t('orderIo.import.title')}
      width={result?.rejected.length ? 860 : 600}
      onCancel={running ? undefined : onClose}
      closable={!running}
      maskClosable={false}
      keyboard={!running}
      footer={footer}
      destroyOnHidden
      data-testid="order-import-modal"
    >
      {result ? (
        <ImportReport result={result} />
      ) : running ? (
        <Flex vertical align="center" gap={12} style={{ padding: '32px 0' }} data-testid="order-import-running">
          <Progress percent={100} status="active" showInfo={false} style={{ width: '80%' }} />
          <Typography.Text type="secondary">{t('orderIo.import.running', { name: file?.name ?? '' })}</Typography.Text>
        </Flex>
      ) : (
        <Flex vertical gap={16} style={{ marginTop: 16 }}>
          <Flex justify="space-between" align="center" gap={12}>
            <Typography.Text>{t('orderIo.import.step.template')}</Typography.Text>
            <Button
              icon={<DownloadOutlined />}
              loading={templateLoading}
              onClick={() => void downloadTemplate()}
              data-testid="order-import-template"
            >
              {t('orderIo.import.template')}
            </Button>
          </Flex>
          <Typography.Text>{t('orderIo.import.step.file')}</Typography.Text>
          <Upload.Dragger
            accept={IMPORT_ACCEPT}
            multiple={false}
            showUploadList={false}
            beforeUpload={(picked) => {
              if (!isImportFile(picked.name)) {
                void message.error(t('orderIo.import.badType'));
                return Upload.LIST_IGNORE;
              }
              setFile(picked);
              setFailure(null);
              return false;
            }}
            data-testid="order-import-file"
          >
            <p className="ant-upload-drag-icon">{file ? <FileExcelOutlined /> : <InboxOutlined />}</p>
            {file ? (
              <p className="ant-upload-text" data-testid="order-import-file-name">
                {file.name}
              </p>
            ) : (
              <>
                <p className="ant-upload-text">{t('orderIo.import.pick')}</p>
                <p className="ant-upload-hint">{t('orderIo.import.pick.hint')}</p>
              </>
            )}
          </Upload.Dragger>
          <div>
            <Checkbox checked={keepValid} onChange={(e) => setKeepValid(e.target.checked)} data-testid="order-import-keep-valid">
              {t('orderIo.import.keepValid')}
            </Checkbox>
            <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0 24px' }}>
              {t('orderIo.import.keepValid.help')}
            </Typography.Paragraph>
          </div>
          {failure ? <Alert type="error" showIcon title={failure} data-testid="order-import-error" /> : null}
        </Flex>
      )}
    </Modal>
  );
}

/** The answer of an import: the counts, a sentence saying what happened, the rejected rows. */
function ImportReport({ result }: { result: OrderImportResult }) {
  const { t } = useTranslation();
  const rejected = result.rejected.length;
  const outcome =
    result.total === 0
      ? { type: 'warning' as const, text: t('orderIo.import.result.empty') }
      : rejected === 0
        ? { type: 'success' as const, text: t('orderIo.import.result.success', { count: result.imported }) }
        : result.imported > 0
          ? { type: 'warning' as const, text: t('orderIo.import.result.partial', { imported: result.imported, rejected }) }
          : { type: 'error' as const, text: t('orderIo.import.result.none', { count: rejected }) };

  const download = () => {
    const blob = rejectedRowsCsvBlob(result.rejected, {
      row: t('orderIo.import.rejected.row'),
      reasons: t('orderIo.import.rejected.reasons'),
    });
    saveBlob(blob, `${t('orderIo.import.rejected.fileName')}-${fileStamp()}.csv`);
  };

  return (
    <Flex vertical gap={16} style={{ marginTop: 16 }} data-testid="order-import-result">
      <Flex gap={48}>
        <Statistic title={t('orderIo.import.result.total')} value={result.total} data-testid="order-import-total" />
        <Statistic
          title={t('orderIo.import.result.imported')}
          value={result.imported}
          styles={{ content: { color: result.imported > 0 ? 'var(--ant-color-success)' : undefined } }}
          data-testid="order-import-imported"
        />
        <Statistic
          title={t('orderIo.import.result.rejected')}
          value={rejected}
          styles={{ content: { color: rejected > 0 ? 'var(--ant-color-error)' : undefined } }}
          data-testid="order-import-rejected-count"
        />
        {result.history ? (
          <>
            <Statistic title={t('history.import.macChanged')} value={result.history.macChanged} data-testid="order-import-mac-changed" />
            <Statistic
              title={t('history.import.knownMachine')}
              value={result.history.knownMachine}
              data-testid="order-import-known-machine"
            />
          </>
        ) : null}
      </Flex>
      <Alert type={outcome.type} showIcon title={outcome.text} data-testid="order-import-outcome" />
      {rejected > 0 ? (
        <>
          <Flex justify="space-between" align="center">
            <Typography.Text strong>{t('orderIo.import.rejected.title')}</Typography.Text>
            <Button icon={<DownloadOutlined />} onClick={download} data-testid="order-import-download-rejected">
              {t('orderIo.import.rejected.download')}
            </Button>
          </Flex>
          <Table<ImportRejectedRow>
            rowKey="row"
            size="small"
            dataSource={result.rejected}
            pagination={result.rejected.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
            data-testid="order-import-rejected"
            columns={[
              { key: 'row', title: t('orderIo.import.rejected.row'), dataIndex: 'row', width: 80 },
              {
                key: 'reasons',
                title: t('orderIo.import.rejected.reasons'),
                render: (_, r) => (
                  <Space orientation="vertical" size={0}>
                    {r.reasons.map((reason) => (
                      <Typography.Text key={reason} type="danger">
                        {reason}
                      </Typography.Text>
                    ))}
                  </Space>
                ),
              },
              {
                key: 'values',
                title: t('orderIo.import.rejected.values'),
                width: 320,
                ellipsis: true,
                render: (_, r) => {
                  const text = Object.values(r.values)
                    .filter((v) => v !== '')
                    .join(' | ');
                  return <span title={text}>{text}</span>;
                },
              },
            ]}
          />
        </>
      ) : null}
    </Flex>
  );
}
