import { Migrator, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
import type { Db } from './index.ts';
import * as m0001 from './migrations/0001_init.ts';
import * as m0002 from './migrations/0002_tracking.ts';
import * as m0003 from './migrations/0003_system.ts';
import * as m0004 from './migrations/0004_orders.ts';
import * as m0005 from './migrations/0005_data_care.ts';
import * as m0006 from './migrations/0006_workplace.ts';
import * as m0007 from './migrations/0007_visits.ts';
import * as m0008 from './migrations/0008_public_pages.ts';
import * as m0009 from './migrations/0009_messages.ts';
import * as m0010 from './migrations/0010_target_history.ts';
import * as m0011 from './migrations/0011_view_as.ts';
import * as m0012 from './migrations/0012_avatar_messages.ts';
import * as m0013 from './migrations/0013_dict_label_en.ts';
import * as m0014 from './migrations/0014_rate_limits.ts';
import * as m0015 from './migrations/0015_role_description_en.ts';
import * as m0016 from './migrations/0016_operation_log_details.ts';
import * as m0017 from './migrations/0017_second_factor.ts';
import * as m0018 from './migrations/0018_text_in_reader_language.ts';
import * as m0019 from './migrations/0019_idempotency_keys.ts';

/**
 * Every migration, in order. A static list (not a folder scan) so bundlers, tsx and tests
 * all see the same set. Append only.
 */
export const migrations: Record<string, Migration> = {
  '0001_init': m0001,
  '0002_tracking': m0002,
  '0003_system': m0003,
  '0004_orders': m0004,
  '0005_data_care': m0005,
  '0006_workplace': m0006,
  '0007_visits': m0007,
  '0008_public_pages': m0008,
  '0009_messages': m0009,
  '0010_target_history': m0010,
  '0011_view_as': m0011,
  '0012_avatar_messages': m0012,
  '0013_dict_label_en': m0013,
  '0014_rate_limits': m0014,
  '0015_role_description_en': m0015,
  '0016_operation_log_details': m0016,
  '0017_second_factor': m0017,
  '0018_text_in_reader_language': m0018,
  '0019_idempotency_keys': m0019,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * Runs every pending migration under Kysely's migration lock (PostgreSQL advisory lock,
 * MySQL GET_LOCK), so several processes starting at once do not collide.
 * Migrations see raw snake_case names: they run without the CamelCasePlugin.
 */
export async function migrateToLatest(db: Db): Promise<MigrationResultSet> {
  const migrator = new Migrator({ db: db.withoutPlugins(), provider });
  const result = await migrator.migrateToLatest();
  if (result.error !== undefined) {
    const failed = result.results?.find((r) => r.status === 'Error');
    const cause = result.error instanceof Error ? result.error.message : String(result.error);
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${cause}`.replace('  ', ' '), {
      cause: result.error,
    });
  }
  return result;
}

/** Whether a migration of this build has not run on the database yet (throws if it cannot tell). */
export async function migrationsPending(db: Db): Promise<boolean> {
  const migrator = new Migrator({ db: db.withoutPlugins(), provider });
  return (await migrator.getMigrations()).some((m) => m.executedAt === undefined);
}
