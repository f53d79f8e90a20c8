import type {
  DictData,
  DictDataCreateBody,
  DictDataItem,
  DictDataListQuery,
  DictDataNode,
  DictDataUpdateBody,
  DictStore,
  DictTypeCreateBody,
  DictTypeItem,
  DictTypeListQuery,
  DictTypeUpdateBody,
  DictTypeWithData,
} from '@clearplay/contract';
import { LINKSTORE_DICT, localizedLabel, PUBLIC_PRICE_DICT } from '@clearplay/contract';
import { isUniqueViolation } from '../../db/errors.ts';
import { textFilter } from '../../db/text-search.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { Db } from '../../db/index.ts';
import type { DictDataRow, DictTypeRow } from '../../db/schema.ts';
import { DICTIONARIES } from '../../db/seed.ts';
import { AppError, FieldAppError } from '../../lib/errors.ts';
import { nowMs, toIso } from '../../lib/time.ts';
import { DICT_PARAMS, type LabelOf } from '../../lib/told.ts';
import * as repo from './dicts.repository.ts';

export const toDictData = (row: DictDataRow): DictData => ({
  id: row.id,
  typeCode: row.typeCode,
  label: row.label,
  labelEn: row.labelEn,
  value: row.value,
  sort: row.sort,
  cssClass: row.cssClass,
  listClass: row.listClass,
  isDefault: row.isDefault === 1,
  parentId: row.parentId,
  status: row.status,
});

/** Rows of one type -> forest by parentId; a row whose parent is absent becomes a root. */
export function buildTree(items: readonly DictData[]): DictDataNode[] {
  const nodes = new Map<number, DictDataNode>(items.map((item) => [item.id, { ...item }]));
  const roots: DictDataNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
    if (parent === undefined || parent === node) roots.push(node);
    else (parent.children ??= []).push(node);
  }
  return roots;
}

/** Enabled entries of a type, if the type is enabled too, in display order (what other modules accept as values). */
export const enabledEntriesOf = (db: Db, typeCode: string): Promise<DictDataRow[]> => repo.enabledDataOfType(db, typeCode);

/** Every entry of every type, disabled ones too (labels of values already stored). */
export const allEntries = (db: Db): Promise<DictDataRow[]> => repo.allData(db);

/**
 * The labels of stored values of these dictionaries in a reader's language (decision 0097):
 * English falls back to the Chinese label; a value the dictionary lacks answers undefined.
 * Disabled entries count (a message about a game that is no longer offered still names it).
 */
export async function dictLabels(db: Db, typeCodes: readonly string[] = Object.values(DICT_PARAMS)): Promise<LabelOf> {
  const rows = await repo.labelsOfTypes(db, typeCodes);
  const byKey = new Map(rows.map((r) => [`${r.typeCode}\u0000${r.value}`, r]));
  return (typeCode, value, locale) => {
    const row = byKey.get(`${typeCode}\u0000${value}`);
    return row === undefined ? undefined : localizedLabel(row.label, row.labelEn, locale);
  };
}

/** Spec §3 "Dictionary store": enabled entries keyed by type code, flat and as trees. */
export async function getDictStore(db: Db): Promise<DictStore> {
  const dictData: Record<string, DictData[]> = {};
  for (const row of await repo.listEnabledData(db)) (dictData[row.typeCode] ??= []).push(toDictData(row));
  const dictDataTree: Record<string, DictDataNode[]> = {};
  for (const [code, items] of Object.entries(dictData)) dictDataTree[code] = buildTree(items);
  return { dictData, dictDataTree };
}

// ── administration ──

/** The dictionaries the product itself reads (seeded): their codes cannot change and they cannot be deleted. */
export const BUILT_IN_TYPES: ReadonlySet<string> = new Set(DICTIONARIES.map((d) => d.code));

/** The dictionary behind the status fields of users, types and entries. */
export const STATUS_DICT = 'common_status';
/** The dictionary behind "detection public" (users' ifPublic, orders' ifPublic). */
export const PUBLIC_DICT = 'public_private';

/**
 * A value stored in a dictionary-backed field must be an enabled entry of an enabled type.
 * Throws a 400 naming the field otherwise. Reusable by every module (orders' result, game…).
 */
export async function assertDictValue(db: Db, typeCode: string, value: string | number, field: string): Promise<void> {
  const text = String(value);
  if ((await repo.findEnabledValue(db, typeCode, text)) === undefined) {
    throw new FieldAppError(400, field, 'dict.invalidValue', { value: text, code: typeCode });
  }
}

export const toDictDataItem = (row: DictDataRow): DictDataItem => ({
  ...toDictData(row),
  remark: row.remark,
  remarkEn: row.remarkEn,
  createdTime: toIso(Number(row.createdAt)),
});

const toDictTypeItem = (row: DictTypeRow, dataCount: number): DictTypeItem => ({
  id: row.id,
  code: row.code,
  name: row.name,
  nameEn: row.nameEn,
  status: row.status === 1 ? 1 : 0,
  remark: row.remark,
  createdTime: toIso(Number(row.createdAt)),
  dataCount,
});

export async function listTypesPage(db: Db, query: DictTypeListQuery): Promise<{ list: DictTypeItem[]; total: number }> {
  const f = { code: textFilter(query.code), name: textFilter(query.name), status: query.status };
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? 20;
  const [rows, total] = await Promise.all([repo.listTypes(db, f, (page - 1) * pageSize, pageSize), repo.countTypes(db, f)]);
  const counts = await repo.countDataByType(
    db,
    rows.map((r) => r.code),
  );
  return { list: rows.map((r) => toDictTypeItem(r, counts.get(r.code) ?? 0)), total };
}

async function typeItem(db: Db, id: number): Promise<DictTypeItem> {
  const row = await repo.findTypeById(db, id);
  if (row === undefined) throw new AppError(404, 'dict.typeNotFound', { id });
  return toDictTypeItem(row, (await repo.countDataByType(db, [row.code])).get(row.code) ?? 0);
}

const codeTaken = (code: string) => new FieldAppError(409, 'code', 'dict.typeCodeTaken', { code });

export async function createType(db: Db, body: DictTypeCreateBody): Promise<DictTypeItem> {
  if (body.status !== undefined) await assertDictValue(db, STATUS_DICT, body.status, 'status');
  try {
    const id = await writeTransaction(db, async (trx) => {
      if ((await repo.findTypeByCode(trx, body.code)) !== undefined) throw codeTaken(body.code);
      return repo.insertType(trx, {
        code: body.code,
        name: body.name.trim(),
        nameEn: (body.nameEn ?? '').trim(),
        status: body.status ?? 1,
        remark: (body.remark ?? '').trim(),
        createdAt: nowMs(),
      });
    });
    return await typeItem(db, id);
  } catch (error) {
    if (isUniqueViolation(error)) throw codeTaken(body.code);
    throw error;
  }
}

/** Updates a type; a new code is carried to its entries in the same transaction. */
export async function updateType(db: Db, body: DictTypeUpdateBody): Promise<{ item: DictTypeItem; previousCode: string }> {
  if (body.status !== undefined) await assertDictValue(db, STATUS_DICT, body.status, 'status');
  try {
    const previousCode = await writeTransaction(db, async (trx) => {
      const row = await repo.findTypeById(trx, body.id);
      if (row === undefined) throw new AppError(404, 'dict.typeNotFound', { id: body.id });
      if (row.code !== body.code) {
        if (BUILT_IN_TYPES.has(row.code)) throw new FieldAppError(400, 'code', 'dict.builtInType', { code: row.code });
        if ((await repo.findTypeByCode(trx, body.code)) !== undefined) throw codeTaken(body.code);
      }
      await repo.updateType(trx, body.id, {
        code: body.code,
        name: body.name.trim(),
        nameEn: body.nameEn === undefined ? row.nameEn : body.nameEn.trim(),
        status: body.status ?? row.status,
        remark: body.remark === undefined ? row.remark : body.remark.trim(),
      });
      if (row.code !== body.code) await repo.renameDataType(trx, row.code, body.code);
      return row.code;
    });
    return { item: await typeItem(db, body.id), previousCode };
  } catch (error) {
    if (isUniqueViolation(error)) throw codeTaken(body.code);
    throw error;
  }
}

/** Deletes a type and all its entries in one transaction; answers what was deleted. */
export async function deleteType(db: Db, id: number): Promise<{ code: string; entries: number }> {
  return writeTransaction(db, async (trx) => {
    const row = await repo.findTypeById(trx, id);
    if (row === undefined) throw new AppError(404, 'dict.typeNotFound', { id });
    if (BUILT_IN_TYPES.has(row.code)) throw new AppError(400, 'dict.builtInType', { code: row.code });
    const result = await repo.deleteDataOfType(trx, row.code);
    await repo.deleteType(trx, id);
    return { code: row.code, entries: Number(result[0]?.numDeletedRows ?? 0) };
  });
}

export async function listDataPage(db: Db, typeCode: string, query: DictDataListQuery): Promise<{ list: DictDataItem[]; total: number }> {
  const f = { label: textFilter(query.label), status: query.status };
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? 20;
  const [rows, total] = await Promise.all([
    repo.listData(db, typeCode, f, (page - 1) * pageSize, pageSize),
    repo.countData(db, typeCode, f),
  ]);
  return { list: rows.map(toDictDataItem), total };
}

/** parentId must be an entry of the same type, and (for an existing entry) not itself or below it. */
async function assertParent(db: Db, typeCode: string, parentId: number | null, selfId: number | null): Promise<void> {
  if (parentId === null) return;
  if (parentId === selfId) throw new FieldAppError(400, 'parentId', 'dict.parentCycle');
  const parent = await repo.findDataById(db, parentId);
  if (parent === undefined || parent.typeCode !== typeCode) throw new FieldAppError(400, 'parentId', 'dict.parentInvalid');
  if (selfId === null) return;
  let cursor: number | null = parent.parentId;
  for (let hops = 0; cursor !== null && hops < 10_000; hops++) {
    if (cursor === selfId) throw new FieldAppError(400, 'parentId', 'dict.parentCycle');
    cursor = (await repo.parentOf(db, cursor))?.parentId ?? null;
  }
}

async function assertDataFields(db: Db, body: DictDataCreateBody): Promise<void> {
  if (body.status !== undefined) await assertDictValue(db, STATUS_DICT, body.status, 'status');
  assertTypedValue(body.typeCode, body.value);
  if ((await repo.findTypeByCode(db, body.typeCode)) === undefined) {
    throw new FieldAppError(400, 'typeCode', 'dict.typeCodeNotFound', { code: body.typeCode });
  }
}

/** An absolute http(s) URL with a host (the link store opens nothing else). */
export function isHttpUrl(text: string): boolean {
  if (!/^https?:\/\//i.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Whole fen, at most ¥1,000,000. */
const PRICE_FEN = /^(0|[1-9]\d{0,7})$/;

/** Types whose values the public pages read have a shape: links are http(s) URLs, prices whole fen. */
function assertTypedValue(typeCode: string, value: string): void {
  if (typeCode === LINKSTORE_DICT && !isHttpUrl(value)) throw new FieldAppError(400, 'value', 'dict.linkUrl', { value });
  if (typeCode === PUBLIC_PRICE_DICT && !PRICE_FEN.test(value)) throw new FieldAppError(400, 'value', 'dict.priceFen', { value });
}

const valueTaken = (code: string, value: string) => new FieldAppError(409, 'value', 'dict.valueTaken', { value, code });

export async function createData(db: Db, body: DictDataCreateBody): Promise<DictDataItem> {
  await assertDataFields(db, body);
  const id = await writeTransaction(db, async (trx) => {
    if ((await repo.findDataByValue(trx, body.typeCode, body.value)) !== undefined) throw valueTaken(body.typeCode, body.value);
    await assertParent(trx, body.typeCode, body.parentId ?? null, null);
    const newId = await repo.insertData(trx, {
      typeCode: body.typeCode,
      label: body.label.trim(),
      labelEn: (body.labelEn ?? '').trim(),
      value: body.value,
      sort: body.sort ?? 0,
      cssClass: body.cssClass ?? '',
      listClass: body.listClass ?? 'default',
      isDefault: body.isDefault === true ? 1 : 0,
      parentId: body.parentId ?? null,
      status: body.status ?? 1,
      remark: (body.remark ?? '').trim(),
      remarkEn: (body.remarkEn ?? '').trim(),
      createdAt: nowMs(),
    });
    if (body.isDefault === true) await repo.unsetDefaults(trx, body.typeCode, newId);
    return newId;
  });
  return dataItem(db, id);
}

async function dataItem(db: Db, id: number): Promise<DictDataItem> {
  const row = await repo.findDataById(db, id);
  if (row === undefined) throw new AppError(404, 'dict.dataNotFound', { id });
  return toDictDataItem(row);
}

/** Updates an entry; fields left out keep their value (a status toggle sends only what it has). */
export async function updateData(db: Db, body: DictDataUpdateBody): Promise<DictDataItem> {
  await assertDataFields(db, body);
  await writeTransaction(db, async (trx) => {
    const row = await repo.findDataById(trx, body.id);
    if (row === undefined) throw new AppError(404, 'dict.dataNotFound', { id: body.id });
    if (row.typeCode !== body.typeCode && (await repo.countChildren(trx, row.id)) > 0) {
      throw new FieldAppError(400, 'typeCode', 'dict.typeChangeWithChildren', { label: row.label });
    }
    const same = await repo.findDataByValue(trx, body.typeCode, body.value);
    if (same !== undefined && same.id !== row.id) throw valueTaken(body.typeCode, body.value);
    const parentId = body.parentId === undefined ? (row.typeCode === body.typeCode ? row.parentId : null) : body.parentId;
    await assertParent(trx, body.typeCode, parentId, row.id);
    const isDefault = body.isDefault === undefined ? row.isDefault : body.isDefault ? 1 : 0;
    await repo.updateData(trx, row.id, {
      typeCode: body.typeCode,
      label: body.label.trim(),
      labelEn: body.labelEn === undefined ? row.labelEn : body.labelEn.trim(),
      value: body.value,
      sort: body.sort ?? row.sort,
      cssClass: body.cssClass ?? row.cssClass,
      listClass: body.listClass ?? row.listClass,
      isDefault,
      parentId,
      status: body.status ?? row.status,
      remark: body.remark === undefined ? row.remark : body.remark.trim(),
      remarkEn: body.remarkEn === undefined ? row.remarkEn : body.remarkEn.trim(),
    });
    if (isDefault === 1) await repo.unsetDefaults(trx, body.typeCode, row.id);
  });
  return dataItem(db, body.id);
}

/** Deletes an entry that has no children; answers it as it was. */
export async function deleteData(db: Db, id: number): Promise<DictDataItem> {
  return writeTransaction(db, async (trx) => {
    const row = await repo.findDataById(trx, id);
    if (row === undefined) throw new AppError(404, 'dict.dataNotFound', { id });
    if ((await repo.countChildren(trx, id)) > 0) throw new AppError(400, 'dict.hasChildren', { label: row.label });
    await repo.deleteData(trx, id);
    return toDictDataItem(row);
  });
}

/** Every type with every entry (disabled included), for the admin screen. */
export async function typesWithData(db: Db): Promise<DictTypeWithData[]> {
  const [types, data] = await Promise.all([repo.allTypes(db), repo.allData(db)]);
  const byType = new Map<string, DictDataItem[]>();
  for (const row of data) {
    const list = byType.get(row.typeCode) ?? [];
    list.push(toDictDataItem(row));
    byType.set(row.typeCode, list);
  }
  return types.map((t) => {
    const items = byType.get(t.code) ?? [];
    return { ...toDictTypeItem(t, items.length), data: items };
  });
}

/** One type's enabled entries as a forest (nothing when the type is disabled or unknown). */
export async function dataTree(db: Db, typeCode: string): Promise<DictDataNode[]> {
  return buildTree((await repo.enabledDataOfType(db, typeCode)).map(toDictData));
}
