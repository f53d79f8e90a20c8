import type { Db } from '../../db/index.ts';

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
