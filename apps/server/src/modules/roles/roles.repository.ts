import type { Insertable, Updateable } from 'kysely';
import { insertReturningId } from '../../db/dialect.ts';
import { lowerContains } from '../../db/text-search.ts';
import type { Db } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';

export interface RoleFilter {
  name?: string;
  isAdmin?: number;
}

const filtered = (db: Db, f: RoleFilter) => {
  let q = db.selectFrom('roles');
  if (f.name !== undefined) q = q.where(lowerContains(db, 'name', f.name));
  if (f.isAdmin !== undefined) q = q.where('isAdmin', '=', f.isAdmin);
  return q;
};

export const listRoles = (db: Db, f: RoleFilter, offset: number, limit: number) =>
  filtered(db, f).selectAll().orderBy('id').limit(limit).offset(offset).execute();

export const countRoles = async (db: Db, f: RoleFilter) =>
  Number(
    (
      await filtered(db, f)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

export const allRoles = (db: Db) => db.selectFrom('roles').selectAll().orderBy('id').execute();

export const findRoleById = (db: Db, id: number) => db.selectFrom('roles').selectAll().where('id', '=', id).executeTakeFirst();
export const findRoleByName = (db: Db, name: string) => db.selectFrom('roles').selectAll().where('name', '=', name).executeTakeFirst();

/** Users per role id (users_role_id_idx). */
export async function userCounts(db: Db, roleIds?: readonly number[]): Promise<Map<number, number>> {
  if (roleIds !== undefined && roleIds.length === 0) return new Map();
  let q = db
    .selectFrom('users')
    .select(['roleId', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy('roleId');
  if (roleIds !== undefined) q = q.where('roleId', 'in', roleIds);
  return new Map((await q.execute()).map((r) => [r.roleId, Number(r.n)] as const));
}

export const insertRole = (db: Db, row: Insertable<Database['roles']>) => insertReturningId(db, 'roles', row);
export const updateRole = (db: Db, id: number, set: Updateable<Database['roles']>) =>
  db.updateTable('roles').set(set).where('id', '=', id).execute();
export const deleteRole = (db: Db, id: number) => db.deleteFrom('roles').where('id', '=', id).execute();
