import {
  ANNOUNCEMENT_CONTENT_MAX,
  ANNOUNCEMENT_TITLE_MAX,
  ANNOUNCEMENT_TYPE_DICT,
  type AnnouncementAddBody,
  type AnnouncementItem,
  type AnnouncementListQuery,
} from '@clearplay/contract';
import { textFilter } from '../../db/text-search.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { Db } from '../../db/index.ts';
import type { Selectable } from 'kysely';
import type { AnnouncementsTable } from '../../db/schema.ts';
import { AppError, FieldAppError } from '../../lib/errors.ts';
import { nowMs, toIso } from '../../lib/time.ts';
import { enabledEntriesOf } from '../dicts/dicts.service.ts';
import { sanitizeAnnouncementHtml, textOf } from './announcements.sanitize.ts';
import * as messages from '../messages/messages.service.ts';
import * as repo from './announcements.repository.ts';

/**
 * Announcements (docs/product.md "Messages"; decision 0042): notices, activities and news
 * that every signed-in user reads on the workplace and in the message box. The content is rich
 * text cleaned by announcements.sanitize.ts before it is stored.
 */

export { sanitizeAnnouncementHtml };

type Row = Selectable<AnnouncementsTable>;

export const toAnnouncementItem = (row: Row): AnnouncementItem => ({
  id: Number(row.id),
  title: row.title,
  type: row.type,
  content: row.content,
  pinned: row.pinned === 1 ? 1 : 0,
  publishedTime: toIso(Number(row.publishedAt)),
  authorId: row.authorId === null ? null : Number(row.authorId),
  authorName: row.authorName,
  createdTime: toIso(Number(row.createdAt)),
  updatedTime: toIso(Number(row.updatedAt)),
});

export async function listAnnouncements(db: Db, query: AnnouncementListQuery): Promise<{ list: AnnouncementItem[]; total: number }> {
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? 10;
  const type = textFilter(query.type);
  const [rows, total] = await Promise.all([repo.listPage(db, type, (page - 1) * pageSize, pageSize), repo.count(db, type)]);
  return { list: rows.map(toAnnouncementItem), total };
}

/** One announcement; an unknown id is a 404. Its content was sanitized before it was stored. */
export async function getAnnouncement(db: Db, id: number): Promise<AnnouncementItem> {
  const row = await repo.findById(db, id);
  if (row === undefined) throw new AppError(404, 'announcement.notFound', { id });
  return toAnnouncementItem(row);
}

/** The newest announcements, pinned first (the workplace's list). */
export async function latestAnnouncements(db: Db, limit: number): Promise<AnnouncementItem[]> {
  return (await repo.listPage(db, undefined, 0, limit)).map(toAnnouncementItem);
}

export interface Author {
  id: number;
  name: string;
}

export interface AnnouncementRules {
  /** Where images may come from (uploads.service publicFilesBase). */
  imageBases: readonly string[];
}

/** Title, type and clean content, or a 400 naming the field. */
async function checked(db: Db, body: AnnouncementAddBody, rules: AnnouncementRules) {
  const title = body.title.trim();
  if (title === '') throw new FieldAppError(400, 'title', 'announcement.titleEmpty');
  if ([...title].length > ANNOUNCEMENT_TITLE_MAX)
    throw new FieldAppError(400, 'title', 'announcement.titleTooLong', { length: [...title].length, max: ANNOUNCEMENT_TITLE_MAX });
  const types = (await enabledEntriesOf(db, ANNOUNCEMENT_TYPE_DICT)).map((d) => d.value);
  if (!types.includes(body.type))
    throw new FieldAppError(400, 'type', 'announcement.type', { value: body.type, allowed: types.join(', ') });
  // Editors leave an empty paragraph after a list or at the end; it shows nothing.
  const content = sanitizeAnnouncementHtml(body.content, rules.imageBases)
    .trim()
    .replace(/(<p>\s*<\/p>)+$/, '');
  if (textOf(content) === '' && !content.includes('<img')) throw new FieldAppError(400, 'content', 'announcement.contentEmpty');
  if (content.length > ANNOUNCEMENT_CONTENT_MAX)
    throw new FieldAppError(400, 'content', 'announcement.contentTooLong', { length: content.length, max: ANNOUNCEMENT_CONTENT_MAX });
  return { title, type: body.type, content };
}

/**
 * Publishes an announcement. The write runs in one transaction `trx`, so what else publishing
 * must do (the message box's notices) joins it there.
 */
export async function addAnnouncement(
  db: Db,
  body: AnnouncementAddBody,
  author: Author,
  rules: AnnouncementRules,
): Promise<AnnouncementItem> {
  const values = await checked(db, body, rules);
  const id = await writeTransaction(db, async (trx) => {
    const now = nowMs();
    const inserted = await repo.insert(trx, {
      ...values,
      pinned: body.pinned === 1 ? 1 : 0,
      publishedAt: now,
      authorId: author.id,
      authorName: author.name,
      createdAt: now,
      updatedAt: now,
    });
    // The message box's notice tab: one notice per enabled user, written with the announcement.
    await messages.notifyAll(trx, { announcementId: inserted, title: values.title }, now);
    return inserted;
  });
  const row = await repo.findById(db, id);
  if (row === undefined) throw new AppError(404, 'announcement.notFound', { id });
  return toAnnouncementItem(row);
}

/** Deletes one announcement; an unknown id is a 404. Answers its title (for the log). */
export async function deleteAnnouncement(db: Db, id: number): Promise<string> {
  return writeTransaction(db, async (trx) => {
    const row = await repo.findById(trx, id);
    if (row === undefined || (await repo.remove(trx, id)) === 0) throw new AppError(404, 'announcement.notFound', { id });
    await messages.announcementRemoved(trx, id);
    return row.title;
  });
}
