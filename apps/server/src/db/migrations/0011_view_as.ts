/**
 * FROZEN. Switch roles / view as (issue 14, decision 0060): a super admin's session may view the
 * app as another role (admin, inspector, shop) and, for a shop, as one shop account. The state
 * lives on the session row, so it ends with the session, survives a reload, holds across
 * processes and is read by the one query every signed-in request already makes.
 * - view_role: the viewed role's name, or null when not viewing.
 * - view_user_id: the viewed shop account (users.id), or null (admin, inspector, or not viewing).
 * No index: both are read through the session's unique token-hash lookup.
 */
import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are untyped by design */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('view_role', 'varchar(32)').execute();
  await db.schema.alterTable('sessions').addColumn('view_user_id', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('view_user_id').execute();
  await db.schema.alterTable('sessions').dropColumn('view_role').execute();
}
