/**
 * An order's evidence as a ZIP (docs/product.md "Orders"): one folder per image kind, the images
 * numbered in their order (01.png, 02.jpg, …), and summary.txt, a one-page summary of the
 * record in the caller's language (another shop's public record without amount and client) with
 * the target's history before it as the caller may see it (decision 0070).
 *
 * Where the images come from: the uploads module's BlobStore, for the URLs it handed out
 * (`/upload/files/<key>` of the embedded upload host, also as an absolute URL on this server's
 * own host; `<provider public domain>/<key>` of the cloud provider), read with a timeout and a
 * size limit. Anything else is not fetched: the server does not request arbitrary addresses
 * for a client (no request forgery through an order's image list).
 * An image that cannot be read is left out and listed in the summary; the ZIP still comes.
 * Images are added one at a time, each once the previous one has been sent on.
 */
import type { PassThrough, Readable } from 'node:stream';
import { formatMoney, ORDER_IMAGE_KINDS, type OrderHistory, type OrderImageKind, type OrderItem } from '@clearplay/contract';
import QRCode from 'qrcode';
import { ZipFile } from 'yazl';
import type { Db } from '../../../db/index.ts';
import { t, type Locale, type MessageKey } from '../../../lib/messages.ts';
import { nowMs } from '../../../lib/time.ts';
import type { Operator } from '../../../http/route-context.ts';
import { BlobReadError, type BlobStore } from '../../uploads/uploads.service.ts';
import { detectImageType, IMAGE_SNIFF_BYTES } from '../../uploads/image-type.ts';
import { orderHistory } from '../history/orders.history.ts';
import { seesAll } from '../orders.rules.ts';
import { toOrderItem, visibleOrder } from '../orders.service.ts';
import { formatBeijing, headerOf, labelOf, loadDictLabels, type SheetColumn } from './orders.sheet.ts';
import { room } from '../../../lib/streams.ts';

export interface ImageStore {
  /** Where the images are (the uploads module's createBlobStore). */
  blobs: BlobStore;
  maxImageBytes: number;
  /** Per remote image (default 15 s). */
  fetchTimeoutMs?: number;
}

const FOLDER_KEY: Record<OrderImageKind, MessageKey> = {
  certImages: 'orderSheet.folder.certImages',
  proofImages: 'orderSheet.folder.proofImages',
  personCertImages: 'orderSheet.folder.personCertImages',
};

const EXTENSION: Record<string, string> = {
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/bmp': '.bmp',
  'image/tiff': '.tif',
  'image/heic': '.heic',
  'image/heif': '.heif',
  'image/avif': '.avif',
};

/** Reading images together may take this long; later ones are then listed as timed out. */
const REMOTE_BUDGET_MS = 120_000;

type Missing = { key: MessageKey; params?: Record<string, string | number> };
type Fetched = { data: Buffer } | { missing: Missing };

type Source = { key: string } | { foreign: true };

/** Where an image URL of an order is read from (see the file comment). */
export function sourceOf(raw: string, blobs: BlobStore, ownHost: string | undefined): Source {
  const key = blobs.keyOfUrl(raw, ownHost);
  return key === null ? { foreign: true } : { key };
}

/** The image's bytes through the store, at most `max` of them, within `timeoutMs`. */
async function readImage(blobs: BlobStore, key: string, max: number, timeoutMs: number): Promise<Fetched> {
  const tooLarge: Fetched = { missing: { key: 'orderSheet.missing.tooLarge', params: { max: Math.floor(max / 1024 / 1024) } } };
  if (timeoutMs <= 0) return { missing: { key: 'orderSheet.missing.timeout' } };
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const got = await blobs.get(key, { signal });
    if (got === null) return { missing: { key: 'orderSheet.missing.notFound' } };
    if (got.info !== null && got.info.size > max) {
      got.stream.destroy();
      return tooLarge;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of got.stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > max) {
        got.stream.destroy();
        return tooLarge;
      }
      chunks.push(chunk);
    }
    return { data: Buffer.concat(chunks) };
  } catch (error) {
    if (error instanceof BlobReadError && error.reason === 'http')
      return { missing: { key: 'orderSheet.missing.http', params: { status: error.status ?? 0 } } };
    const name = (error as { name?: unknown }).name;
    const timedOut =
      (error instanceof BlobReadError && error.reason === 'timeout') || name === 'TimeoutError' || name === 'AbortError' || signal.aborted;
    return { missing: { key: timedOut ? 'orderSheet.missing.timeout' : 'orderSheet.missing.failed' } };
  }
}

/** The file extension: from the content, else from the URL, else none. */
export function extensionOf(data: Buffer, raw: string): string {
  const type = detectImageType(data.subarray(0, IMAGE_SNIFF_BYTES));
  if (type !== null && EXTENSION[type] !== undefined) return EXTENSION[type];
  const path = raw.split(/[?#]/)[0] ?? '';
  const match = /\.([A-Za-z0-9]{1,5})$/.exec(path.slice(path.lastIndexOf('/') + 1));
  return match ? `.${match[1]!.toLowerCase()}` : '';
}

const imageUrls = (list: string): string[] =>
  list
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '');

const number = (i: number, count: number) => String(i + 1).padStart(Math.max(2, String(count).length), '0');

interface MissingImage {
  entry: string;
  url: string;
  reason: string;
}

/** The target history as of the order, for the summary: what the caller may see of it. */
export interface SummaryHistory {
  history: OrderHistory;
  /** The dictionary's label of a result value. */
  resultLabel: (value: number) => string;
  /** A shop's view: only its own records and public ones are counted. */
  ownView: boolean;
}

const RESULT_ORDER = ['1', '3', '2', '0'] as const;

/** The summary's target-history lines (decision 0070): the detail modal's summary, in the caller's language. */
function historyLines(locale: Locale, h: SummaryHistory, colon: string): string[] {
  const { summary } = h.history;
  const sep = locale === 'zh-CN' ? '，' : ', ';
  const counts = RESULT_ORDER.filter((k) => summary.byResult[k] > 0).map((k) => `${h.resultLabel(Number(k))} × ${summary.byResult[k]}`);
  const lines = [
    `${t(locale, 'orderSheet.history.title')}${colon.trimEnd()}`,
    `  ${t(locale, 'orderSheet.history.earlier')}${colon}${counts.length > 0 ? counts.join(sep) : t(locale, 'orderSheet.history.none')}`,
  ];
  const flagged = summary.latestFlagged;
  if (flagged !== null)
    lines.push(
      `  ${t(locale, 'orderSheet.history.flagged', {
        result: h.resultLabel(flagged.result),
        date: formatBeijing(Date.parse(flagged.createdTime)),
        game: flagged.gameName,
        mac: flagged.mac,
      })}`,
    );
  if (summary.previousMac !== null)
    lines.push(
      `  ${t(locale, summary.macChanged === true ? 'orderSheet.history.macChanged' : 'orderSheet.history.macSame', { mac: summary.previousMac })}`,
    );
  if (summary.otherChatIds.length > 0)
    lines.push(
      `  ${t(locale, 'orderSheet.history.otherChatIds', { count: summary.otherChatIds.length })}${colon}${summary.otherChatIds.join(sep)}`,
    );
  if (h.ownView) lines.push(`  ${t(locale, 'orderSheet.history.ownView')}`);
  return lines;
}

/** The text of summary.txt (CRLF lines, for every text editor). */
export function summaryText(
  item: OrderItem,
  locale: Locale,
  labels: { result: string; ifPublic: string; ifChangedMac: string },
  counts: Record<OrderImageKind, number>,
  missing: readonly MissingImage[],
  now: number,
  verifyUrl?: string,
  history?: SummaryHistory,
): string {
  const colon = locale === 'zh-CN' ? '：' : ': ';
  const line = (column: SheetColumn, value: string) => `${headerOf(locale, column)}${colon}${value}`;
  const full = item.view === 'full';
  const title = t(locale, 'orderSheet.summary.title', { code: item.code });
  const lines = [
    title,
    '='.repeat(Math.max(20, title.length * 2)),
    line('code', item.code),
    line('objWechat', item.objWechat),
    line('objWechatName', item.objWechatName),
    line('gameName', item.gameName),
    line('mac', item.mac),
    line('installationTime', formatBeijing(Date.parse(item.installationTime))),
    line('result', labels.result),
    ...(full ? [line('userName', item.userName ?? '')] : []),
    line('objClientName', item.objClientName),
    ...(full ? [line('inspectorName', item.inspectorName ?? '')] : []),
    ...(full && item.amount !== null ? [line('amount', formatMoney(item.amount, locale))] : []),
    line('ifPublic', labels.ifPublic),
    line('ifChangedMac', labels.ifChangedMac),
    line('description', item.description),
    line('createdTime', formatBeijing(Date.parse(item.createdTime))),
    line('updatedTime', formatBeijing(Date.parse(item.updatedTime))),
    '',
    ...(history === undefined ? [] : [...historyLines(locale, history, colon), '']),
    `${t(locale, 'orderSheet.summary.images')}${colon}`,
    ...ORDER_IMAGE_KINDS.map(
      (kind) =>
        `  ${t(locale, 'orderSheet.summary.imageCount', { kind: headerOf(locale, kind), count: counts[kind], folder: t(locale, FOLDER_KEY[kind]) })}`,
    ),
  ];
  if (missing.length > 0) {
    lines.push('', `${t(locale, 'orderSheet.summary.missing')}${colon}`);
    for (const m of missing) lines.push(`  ${m.entry}${colon}${m.url}${locale === 'zh-CN' ? `（${m.reason}）` : ` (${m.reason})`}`);
  }
  if (verifyUrl !== undefined) {
    lines.push(
      '',
      `${t(locale, 'orderSheet.summary.verifyUrl')}${colon}${verifyUrl}`,
      `  ${t(locale, 'orderSheet.summary.verifyQr', { file: VERIFY_QR_FILE })}`,
    );
    if (item.ifPublic !== 1) lines.push(`  ${t(locale, 'orderSheet.summary.verifyPrivate')}`);
  }
  lines.push('');
  if (!full) lines.push(t(locale, 'orderSheet.summary.publicView'));
  lines.push(t(locale, 'orderSheet.summary.times'), t(locale, 'orderSheet.summary.generated', { time: formatBeijing(now) }));
  return `${lines.join('\r\n')}\r\n`;
}

/** The QR code of the verification URL, at the ZIP's top level. */
export const VERIFY_QR_FILE = 'verify-qr.png';

/** The certificate page of a code under the public pages' base URL (config PUBLIC_URL or the request's origin). */
export const verifyUrlOf = (publicBase: string, code: string): string =>
  `${publicBase.replace(/\/+$/, '')}/verify/${encodeURIComponent(code)}`;

export interface OrderZip {
  fileName: string;
  stream: Readable;
}

/**
 * The order must be visible to the operator (404 otherwise, before any byte is sent). The
 * returned stream is filled as the images are read; `onError` hears a failure after that.
 */
export async function orderZip(
  db: Db,
  id: number,
  op: Operator,
  locale: Locale,
  store: ImageStore,
  ownHost: string | undefined,
  onError: (error: unknown) => void,
  /** Base URL of the public pages: the summary carries the order's verification URL and a QR code of it. */
  publicBase?: string,
): Promise<OrderZip> {
  const item = toOrderItem(await visibleOrder(db, id, op), op);
  const dict = await loadDictLabels(db, locale);
  // The history before this order, as the caller may see it (the detail modal's panel).
  const history = await orderHistory(db, { orderId: id }, op);
  const zip = new ZipFile();
  const out = zip.outputStream as PassThrough;
  const started = nowMs();
  const mtime = new Date(started);

  const fill = async () => {
    const missing: MissingImage[] = [];
    const counts = { certImages: 0, proofImages: 0, personCertImages: 0 } as Record<OrderImageKind, number>;
    for (const kind of ORDER_IMAGE_KINDS) {
      const folder = t(locale, FOLDER_KEY[kind]);
      const urls = imageUrls(item[kind]);
      for (const [i, url] of urls.entries()) {
        if (out.destroyed) return;
        const source = sourceOf(url, store.blobs, ownHost);
        const got: Fetched =
          'key' in source
            ? await readImage(
                store.blobs,
                source.key,
                store.maxImageBytes,
                Math.min(store.fetchTimeoutMs ?? 15_000, started + REMOTE_BUDGET_MS - nowMs()),
              )
            : { missing: { key: 'orderSheet.missing.foreign' } };
        const name = `${folder}/${number(i, urls.length)}`;
        if ('missing' in got) {
          missing.push({ entry: name, url, reason: t(locale, got.missing.key, got.missing.params) });
          continue;
        }
        zip.addBuffer(got.data, `${name}${extensionOf(got.data, url)}`, { mtime, compress: false });
        counts[kind] += 1;
        await room(out);
      }
    }
    const labels = {
      result: labelOf(dict, 'result', item.result),
      ifPublic: labelOf(dict, 'ifPublic', item.ifPublic),
      ifChangedMac: labelOf(dict, 'ifChangedMac', item.ifChangedMac),
    };
    const verifyUrl = publicBase === undefined ? undefined : verifyUrlOf(publicBase, item.code);
    const summary = summaryText(item, locale, labels, counts, missing, nowMs(), verifyUrl, {
      history,
      resultLabel: (value) => labelOf(dict, 'result', value),
      ownView: !seesAll(op),
    });
    zip.addBuffer(Buffer.from(`\uFEFF${summary}`, 'utf8'), 'summary.txt', { mtime });
    if (verifyUrl !== undefined) {
      zip.addBuffer(await QRCode.toBuffer(verifyUrl, { type: 'png', errorCorrectionLevel: 'M', margin: 4, scale: 8 }), VERIFY_QR_FILE, {
        mtime,
      });
    }
    zip.end();
  };
  fill().catch((error: unknown) => {
    onError(error);
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return { fileName: `order-${item.code}.zip`, stream: out };
}
