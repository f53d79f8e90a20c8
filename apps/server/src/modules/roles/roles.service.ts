import {
  ALL_PERMISSIONS,
  isPermission,
  RoleName,
  type RoleCreateBody,
  type RoleItem,
  type RoleListQuery,
  type RoleUpdateBody,
} from '@clearplay/contract';
import type { Operator } from '../../http/route-context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { textFilter } from '../../db/text-search.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { Db } from '../../db/index.ts';
import type { RoleRow } from '../../db/schema.ts';
import { AppError, FieldAppError } from '../../lib/errors.ts';
import { nowMs, toIso } from '../../lib/time.ts';
import { parsePermissions } from '../auth/auth.service.ts';
import * as repo from './roles.repository.ts';

/** The roles seeded on first start: never deleted or renamed. */
export const BUILT_IN_ROLES: ReadonlySet<string> = new Set(Object.values(RoleName));

export const toRoleItem = (row: RoleRow, userCount: number): RoleItem => ({
  id: row.id,
  name: row.name,
  description: row.description,
  descriptionEn: row.descriptionEn ?? '',
  permissions: parsePermissions(row.permissions),
  isAdmin: row.isAdmin === 1,
  createdTime: toIso(Number(row.createdAt)),
  userCount,
  builtIn: BUILT_IN_ROLES.has(row.name),
});

export async function listRolesPage(db: Db, query: RoleListQuery): Promise<{ list: RoleItem[]; total: number }> {
  const f = { name: textFilter(query.name), isAdmin: query.isAdmin === undefined ? undefined : query.isAdmin ? 1 : 0 };
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? 20;
  const [rows, total] = await Promise.all([repo.listRoles(db, f, (page - 1) * pageSize, pageSize), repo.countRoles(db, f)]);
  const counts = await repo.userCounts(
    db,
    rows.map((r) => r.id),
  );
  return { list: rows.map((r) => toRoleItem(r, counts.get(r.id) ?? 0)), total };
}

export async function allRoles(db: Db): Promise<RoleItem[]> {
  const [rows, counts] = await Promise.all([repo.allRoles(db), repo.userCounts(db)]);
  return rows.map((r) => toRoleItem(r, counts.get(r.id) ?? 0));
}

async function roleItem(db: Db, id: number): Promise<RoleItem> {
  const row = await repo.findRoleById(db, id);
  if (row === undefined) throw new AppError(404, 'role.notFound', { id });
  return toRoleItem(row, (await repo.userCounts(db, [id])).get(id) ?? 0);
}

/** Every string from the catalogue, and none the operator lacks (nobody grants more than they hold). */
function checkPermissions(permissions: readonly string[], operator: Operator): string[] {
  for (const p of permissions) {
    if (!isPermission(p)) throw new FieldAppError(400, 'permissions', 'role.unknownPermission', { permission: p });
    if (!operator.permissions.includes(p)) throw new FieldAppError(403, 'permissions', 'role.permissionNotHeld', { permission: p });
  }
  // Stored in catalogue order, so the same set always reads the same.
  return ALL_PERMISSIONS.filter((p) => permissions.includes(p));
}

/** The stored English description: null when blank; undefined (leave as is) when not sent. */
const englishText = (text: string | undefined): string | null | undefined =>
  text === undefined ? undefined : text.trim() === '' ? null : text.trim();

const nameTaken = (name: string) => new FieldAppError(409, 'name', 'role.nameTaken', { name });

export async function createRole(db: Db, body: RoleCreateBody, operator: Operator): Promise<RoleItem> {
  const permissions = checkPermissions(body.permissions, operator);
  try {
    const id = await writeTransaction(db, async (trx) => {
      if ((await repo.findRoleByName(trx, body.name)) !== undefined) throw nameTaken(body.name);
      return repo.insertRole(trx, {
        name: body.name,
        description: body.description.trim(),
        descriptionEn: englishText(body.descriptionEn) ?? null,
        permissions: JSON.stringify(permissions),
        isAdmin: body.isAdmin ? 1 : 0,
        createdAt: nowMs(),
      });
    });
    return await roleItem(db, id);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(body.name);
    throw error;
  }
}

export async function updateRole(db: Db, body: RoleUpdateBody, operator: Operator): Promise<RoleItem> {
  const permissions = checkPermissions(body.permissions, operator);
  try {
    await writeTransaction(db, async (trx) => {
      const row = await repo.findRoleById(trx, body.id);
      if (row === undefined) throw new AppError(404, 'role.notFound', { id: body.id });
      if (row.name !== body.name) {
        if (BUILT_IN_ROLES.has(row.name)) throw new FieldAppError(400, 'name', 'role.builtInRename', { name: row.name });
        if ((await repo.findRoleByName(trx, body.name)) !== undefined) throw nameTaken(body.name);
      }
      if (row.name === RoleName.SUPER_ADMIN && (permissions.length !== ALL_PERMISSIONS.length || !body.isAdmin)) {
        throw new FieldAppError(400, 'permissions', 'role.superAdminFixed');
      }
      await repo.updateRole(trx, row.id, {
        name: body.name,
        description: body.description.trim(),
        descriptionEn: englishText(body.descriptionEn),
        permissions: JSON.stringify(permissions),
        isAdmin: body.isAdmin ? 1 : 0,
      });
    });
    return await roleItem(db, body.id);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(body.name);
    throw error;
  }
}

/** Deletes a role nobody holds; answers its name. */
export async function deleteRole(db: Db, id: number): Promise<string> {
  return writeTransaction(db, async (trx) => {
    const row = await repo.findRoleById(trx, id);
    if (row === undefined) throw new AppError(404, 'role.notFound', { id });
    if (BUILT_IN_ROLES.has(row.name)) throw new AppError(400, 'role.builtInDelete', { name: row.name });
    const holders = (await repo.userCounts(trx, [id])).get(id) ?? 0;
    if (holders > 0) throw new AppError(400, 'role.inUse', { name: row.name, count: holders });
    await repo.deleteRole(trx, id);
    return row.name;
  });
}
