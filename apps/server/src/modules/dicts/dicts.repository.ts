import type { Expression, ExpressionBuilder, Insertable, SqlBool, Updateable } from 'kysely';
import { insertReturningId } from '../../db/dialect.ts';
import { lowerContains } from '../../db/text-search.ts';
import type { Db } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';

/** Enabled data of enabled types, in display order. */
export const listEnabledData = (db: Db) =>
  db
    .selectFrom('dictData')
    .innerJoin('dictTypes', 'dictTypes.code', 'dictData.typeCode')
    .selectAll('dictData')
    .where('dictData.status', '=', 1)
    .where('dictTypes.status', '=', 1)
    .orderBy('dictData.typeCode')
    .orderBy('dictData.sort')
    .orderBy('dictData.id')
    .execute();

// ── administration ──

export interface TypeFilter {
  code?: string;
  name?: string;
  status?: number;
}

const typeWhere = (db: Db, f: TypeFilter) => (eb: ExpressionBuilder<Database, 'dictTypes'>) => {
  const parts: Expression<SqlBool>[] = [];
  if (f.code !== undefined) parts.push(lowerContains(db, 'code', f.code));
  if (f.name !== undefined) parts.push(eb.or([lowerContains(db, 'name', f.name), lowerContains(db, 'nameEn', f.name)]));
  if (f.status !== undefined) parts.push(eb('status', '=', f.status));
  return eb.and(parts);
};

export const listTypes = (db: Db, f: TypeFilter, offset: number, limit: number) =>
  db.selectFrom('dictTypes').selectAll().where(typeWhere(db, f)).orderBy('id').limit(limit).offset(offset).execute();

export const countTypes = async (db: Db, f: TypeFilter) =>
  Number(
    (
      await db
        .selectFrom('dictTypes')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where(typeWhere(db, f))
        .executeTakeFirstOrThrow()
    ).n,
  );

export const allTypes = (db: Db) => db.selectFrom('dictTypes').selectAll().orderBy('id').execute();

/** Entries per type code (all statuses). */
export const countDataByType = async (db: Db, codes?: readonly string[]) => {
  if (codes !== undefined && codes.length === 0) return new Map<string, number>();
  let q = db
    .selectFrom('dictData')
    .select(['typeCode', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy('typeCode');
  if (codes !== undefined) q = q.where('typeCode', 'in', codes);
  return new Map((await q.execute()).map((r) => [r.typeCode, Number(r.n)] as const));
};

export const findTypeById = (db: Db, id: number) => db.selectFrom('dictTypes').selectAll().where('id', '=', id).executeTakeFirst();
export const findTypeByCode = (db: Db, code: string) => db.selectFrom('dictTypes').selectAll().where('code', '=', code).executeTakeFirst();

export const insertType = (db: Db, row: Insertable<Database['dictTypes']>) => insertReturningId(db, 'dictTypes', row);
export const updateType = (db: Db, id: number, set: Updateable<Database['dictTypes']>) =>
  db.updateTable('dictTypes').set(set).where('id', '=', id).execute();
export const deleteType = (db: Db, id: number) => db.deleteFrom('dictTypes').where('id', '=', id).execute();
export const renameDataType = (db: Db, from: string, to: string) =>
  db.updateTable('dictData').set({ typeCode: to }).where('typeCode', '=', from).execute();
export const deleteDataOfType = (db: Db, code: string) => db.deleteFrom('dictData').where('typeCode', '=', code).execute();

export interface DataFilter {
  label?: string;
  status?: number;
}

const dataWhere = (db: Db, typeCode: string, f: DataFilter) => (eb: ExpressionBuilder<Database, 'dictData'>) => {
  const parts: Expression<SqlBool>[] = [eb('typeCode', '=', typeCode)];
  if (f.label !== undefined) parts.push(eb.or([lowerContains(db, 'label', f.label), lowerContains(db, 'labelEn', f.label)]));
  if (f.status !== undefined) parts.push(eb('status', '=', f.status));
  return eb.and(parts);
};

export const listData = (db: Db, typeCode: string, f: DataFilter, offset: number, limit: number) =>
  db
    .selectFrom('dictData')
    .selectAll()
    .where(dataWhere(db, typeCode, f))
    .orderBy('sort')
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();

export const countData = async (db: Db, typeCode: string, f: DataFilter) =>
  Number(
    (
      await db
        .selectFrom('dictData')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where(dataWhere(db, typeCode, f))
        .executeTakeFirstOrThrow()
    ).n,
  );

export const allData = (db: Db) => db.selectFrom('dictData').selectAll().orderBy('typeCode').orderBy('sort').orderBy('id').execute();

/** Value and labels of every entry (disabled ones too) of these types: the words of values already stored. */
export const labelsOfTypes = (db: Db, typeCodes: readonly string[]) =>
  db.selectFrom('dictData').select(['typeCode', 'value', 'label', 'labelEn']).where('typeCode', 'in', typeCodes).execute();

export const enabledDataOfType = (db: Db, typeCode: string) =>
  db
    .selectFrom('dictData')
    .innerJoin('dictTypes', 'dictTypes.code', 'dictData.typeCode')
    .selectAll('dictData')
    .where('dictData.typeCode', '=', typeCode)
    .where('dictData.status', '=', 1)
    .where('dictTypes.status', '=', 1)
    .orderBy('dictData.sort')
    .orderBy('dictData.id')
    .execute();

export const findDataById = (db: Db, id: number) => db.selectFrom('dictData').selectAll().where('id', '=', id).executeTakeFirst();

export const findDataByValue = (db: Db, typeCode: string, value: string) =>
  db.selectFrom('dictData').select(['id']).where('typeCode', '=', typeCode).where('value', '=', value).executeTakeFirst();

/** An enabled entry of an enabled type with this value, if any. */
export const findEnabledValue = (db: Db, typeCode: string, value: string) =>
  db
    .selectFrom('dictData')
    .innerJoin('dictTypes', 'dictTypes.code', 'dictData.typeCode')
    .select('dictData.id')
    .where('dictData.typeCode', '=', typeCode)
    .where('dictData.value', '=', value)
    .where('dictData.status', '=', 1)
    .where('dictTypes.status', '=', 1)
    .executeTakeFirst();

export const insertData = (db: Db, row: Insertable<Database['dictData']>) => insertReturningId(db, 'dictData', row);
export const updateData = (db: Db, id: number, set: Updateable<Database['dictData']>) =>
  db.updateTable('dictData').set(set).where('id', '=', id).execute();
export const deleteData = (db: Db, id: number) => db.deleteFrom('dictData').where('id', '=', id).execute();

export const countChildren = async (db: Db, id: number) =>
  Number(
    (
      await db
        .selectFrom('dictData')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('parentId', '=', id)
        .executeTakeFirstOrThrow()
    ).n,
  );

export const parentOf = async (db: Db, id: number) =>
  (await db.selectFrom('dictData').select(['parentId', 'typeCode']).where('id', '=', id).executeTakeFirst()) ?? null;

export const unsetDefaults = (db: Db, typeCode: string, exceptId: number) =>
  db
    .updateTable('dictData')
    .set({ isDefault: 0 })
    .where('typeCode', '=', typeCode)
    .where('id', '<>', exceptId)
    .where('isDefault', '=', 1)
    .execute();
