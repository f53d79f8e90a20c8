import { Type } from 'typebox';

/** 1 enabled, 0 disabled (dictionary `common_status`). */
export const EnabledStatus = Type.Union([Type.Literal(0), Type.Literal(1)]);
/** 1 yes, 0 no. */
export const Flag = Type.Union([Type.Literal(0), Type.Literal(1)]);
/** An ISO 8601 instant on the wire. */
export const Instant = Type.String({ format: 'date-time' });
/** Money on the wire is integer fen (1 CNY = 100 fen), shown as CNY with two decimals. */
export const Fen = Type.Integer({ minimum: 0, maximum: 100_000_000 });
/** A row id: a positive 32-bit integer (the id columns' range on every database). */
export const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
export const IdQuery = Type.Object({ id: Id }, { additionalProperties: false });
export const IdsBody = Type.Object({ ids: Type.Array(Id, { minItems: 1, maxItems: 1000 }) }, { additionalProperties: false });
/** Optional free-text filter: trimmed by the server, empty means "no filter". */
export const TextFilter = Type.Optional(Type.String({ maxLength: 100 }));
