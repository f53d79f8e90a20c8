import type { Updateable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';

/** The signed-in user's own row, with their role (the user centre). */
export const findOwn = (db: Db, userId: number) =>
  db
    .selectFrom('users')
    .innerJoin('roles', 'roles.id', 'users.roleId')
    .select([
      'users.id',
      'users.username',
      'users.nickname',
      'users.wechat',
      'users.phone',
      'users.avatar',
      'users.locale',
      'users.loginAt',
      'users.createdAt',
      'users.balance',
      'users.serviceEndAt',
      'users.passwordHash',
      'roles.name as roleName',
      'roles.description as roleDescription',
      'roles.descriptionEn as roleDescriptionEn',
      'roles.isAdmin as roleIsAdmin',
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();

export const updateOwn = (db: Db, userId: number, values: Updateable<Database['users']>) =>
  db.updateTable('users').set(values).where('id', '=', userId).execute();
