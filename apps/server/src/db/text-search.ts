/**
 * Case-insensitive text search written the way each database answers it: LIKE patterns with a
 * portable escape, lower() folded as the database folds it, the prefix filter its expression
 * index serves, and the trimming of a free-text filter.
 */
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { dialectOf } from './dialect.ts';
import type { Database } from './schema.ts';

/** A LIKE pattern matching `text` literally as a prefix; `!` is the escape character (portable: MySQL treats `\` in literals). */
export const likePrefix = (text: string): string => `${text.replace(/[!%_]/g, (c) => `!${c}`)}%`;

const lowerAscii = (text: string): string => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** `text` folded as this database's lower() folds a column: SQLite folds ASCII only, the others every letter. */
export const lowerAsDb = (db: Kysely<Database>, text: string): string =>
  dialectOf(db) === 'sqlite' ? lowerAscii(text) : text.toLowerCase();

/**
 * Case-insensitive prefix filter on `lower(column)`, written the way each database answers it
 * from the expression index of migration 0003. SQLite: a range on lower(column) (its LIKE
 * optimisation needs a NOCASE column, not an expression), exact because BINARY compares
 * code points; its lower() folds ASCII only, so the prefix is folded the same way.
 * PostgreSQL: LIKE 'prefix%' (text_pattern_ops index). MySQL/MariaDB: LIKE, no index.
 */
export function lowerPrefix(db: Kysely<Database>, column: string, prefix: string): RawBuilder<SqlBool> {
  const ref = sql.ref(column);
  if (dialectOf(db) === 'sqlite') {
    const low = lowerAsDb(db, prefix);
    const points = [...low];
    const last = points.pop()?.codePointAt(0);
    if (last === undefined || last >= 0x10ffff) return sql<SqlBool>`lower(${ref}) like ${likePrefix(low)} escape '!'`;
    const high = points.join('') + String.fromCodePoint(last === 0xd7ff ? 0xe000 : last + 1);
    return sql<SqlBool>`(lower(${ref}) >= ${low} and lower(${ref}) < ${high})`;
  }
  return sql<SqlBool>`lower(${ref}) like ${likePrefix(lowerAsDb(db, prefix))} escape '!'`;
}

/** Case-insensitive "contains" (small tables only: no index can answer it), folded as the database folds lower(column). */
export function lowerContains(db: Kysely<Database>, column: string, text: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${`%${likePrefix(lowerAsDb(db, text))}`} escape '!'`;
}

/** Trimmed free-text filter; empty means "no filter". */
export const textFilter = (value: string | undefined): string | undefined => {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
};
