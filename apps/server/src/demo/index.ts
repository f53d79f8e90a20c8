/**
 * The demo business (`--demo` / DEMO=1): 20 shops with prices, subscriptions, recharges and
 * balances, 3 inspectors, about 5,000 orders over the last 90 days with evidence images, and
 * the operation log of that time. Generated from one fixed seed relative to the start time,
 * written once: a later start finds the demo's people and adds nothing (decision 0033).
 */
import { join } from 'node:path';
import { ORDER_DICTS, PRICE_FIELD_OF_RESULT, type OrderImageKind } from '@clearplay/contract';
import { DEMO_PASSWORD, seed, type SeedOptions, type SeedResult } from '../db/seed.ts';
import { hashPassword } from '../lib/passwords.ts';
import { DAY_MS, nowMs } from '../lib/time.ts';
import { enabledDataOfType } from '../modules/dicts/dicts.repository.ts';
import { isRetryableConflict, isUniqueViolation } from '../db/errors.ts';
import { writeTransaction } from '../db/write-transaction.ts';
import type { Db } from '../db/index.ts';
import { demoImages, seedDemoAvatars, storeImages, type DemoImage } from './images.ts';
import { demoOrders, type OrderDicts } from './orders.ts';
import { DEMO_PERIOD_DAYS, demoInspectors, demoShops } from './people.ts';
import { createRng } from './prng.ts';
import { newUsernames, writeDemo, type DemoPlan, type DemoSummary } from './write.ts';

export type { DemoSummary } from './write.ts';

/** The demo's fixed seed: every fresh database gets the same business. */
export const DEMO_SEED = 20_260_412;

/** The demo's people (cheap: known before anything else is generated, to see whether the demo is there). */
function planPeople(now: number, seed: number) {
  const rng = createRng(seed);
  return { shops: demoShops(rng.fork('shops'), now), inspectors: demoInspectors(rng.fork('inspectors'), now) };
}

/** The whole business as data, before it is written (pure). */
export function planDemo(now: number, dicts: OrderDicts, images: Record<OrderImageKind, DemoImage[]>, seed = DEMO_SEED): DemoPlan {
  const { shops, inspectors } = planPeople(now, seed);
  return { now, shops, inspectors, orders: demoOrders(createRng(seed).fork('orders'), shops, inspectors, dicts, images, now) };
}

/** The enabled results that have a price, and the enabled games, from the app's dictionaries. */
async function orderDicts(db: Db): Promise<OrderDicts> {
  const [results, games] = await Promise.all([enabledDataOfType(db, ORDER_DICTS.result), enabledDataOfType(db, ORDER_DICTS.game)]);
  return {
    results: results.map((d) => d.value).filter((v) => Object.hasOwn(PRICE_FIELD_OF_RESULT, v)),
    games: games.map((d) => d.value),
  };
}

export interface DemoOptions {
  now: number;
  /** The embedded upload host's folder (UPLOADS_DIR); the images go to its `files/`. */
  uploadsDir: string;
  /** The demo accounts' password hash (one hash for all: argon2id is slow on purpose), asked for only when the business is written. */
  passwordHash: () => Promise<string>;
  roleId: (name: string) => number;
}

/** Seeds the demo business unless it is there already; answers what it wrote, or null. */
export async function seedDemoBusiness(db: Db, options: DemoOptions): Promise<DemoSummary | null> {
  const marker = newUsernames(planPeople(options.now, DEMO_SEED));
  const seeded = async (conn: Db) =>
    (await conn.selectFrom('users').select('id').where('username', 'in', marker).executeTakeFirst()) !== undefined;
  if (await seeded(db)) return null;
  const images = demoImages(options.now - DEMO_PERIOD_DAYS * DAY_MS);
  const plan = planDemo(options.now, await orderDicts(db), images);
  await storeImages(options.uploadsDir, images);
  const passwordHash = await options.passwordHash();
  for (let attempt = 1; ; attempt++) {
    try {
      return await writeTransaction(
        db,
        async (trx) =>
          (await seeded(trx)) ? null : writeDemo(trx, plan, createRng(DEMO_SEED).fork('write'), passwordHash, options.roleId),
        { bulk: true },
      );
    } catch (error) {
      // Another process seeding at the same moment won (its users are in), or a deadlock: look again.
      if (isUniqueViolation(error)) return null;
      if (!isRetryableConflict(error) || attempt >= 5) throw error;
    }
  }
}

export interface SeedWithDemoOptions extends SeedOptions {
  /** Where the demo's evidence images go (the embedded upload host's `<dataDir>/uploads`); needed with `demo`. */
  dataDir?: string;
  /** The embedded upload host's folder (UPLOADS_DIR); default `<dataDir>/uploads`. */
  uploadsDir?: string;
}

/**
 * The start's seed (db/seed.ts: roles, the super admin, dictionaries, the demo accounts) and,
 * with `demo`, the demo business on top. It lives here, above the modules, because the business
 * is written through the orders and ledger modules; db/ stays below them (decision 0020).
 */
export async function seedWithDemo(db: Db, options: SeedWithDemoOptions): Promise<SeedResult & { demo: DemoSummary | null }> {
  const seeded = await seed(db, options);
  if (!options.demo) return { ...seeded, demo: null };
  if (options.dataDir === undefined) throw new Error('Seeding the demo business needs the data directory (for its evidence images)');
  const roles = new Map((await db.selectFrom('roles').select(['id', 'name']).execute()).map((r) => [r.name, r.id]));
  const roleId = (name: string): number => {
    const id = roles.get(name);
    if (id === undefined) throw new Error(`The seeded role "${name}" is missing`);
    return id;
  };
  let hash: Promise<string> | undefined;
  const passwordHash = () => (hash ??= hashPassword(DEMO_PASSWORD));
  const uploadsDir = options.uploadsDir ?? join(options.dataDir, 'uploads');
  const demo = await seedDemoBusiness(db, { now: options.now ?? nowMs(), uploadsDir, passwordHash, roleId });
  // A few accounts' avatars (decision 0062), once, with the business: their keys name the user ids just written.
  if (demo !== null) await seedDemoAvatars(db, uploadsDir);
  return { ...seeded, demo };
}
