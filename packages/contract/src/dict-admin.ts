import { Type, type Static } from 'typebox';
import { EnabledStatus, Id, Instant, TextFilter } from './common.ts';
import { DictData, type DictDataNode } from './dict.ts';
import type { LIST_CLASSES } from './constants/dicts.ts';

export const DictTypeItem = Type.Object({
  id: Type.Integer(),
  code: Type.String(),
  name: Type.String(),
  /** English name; '' when none (decision 0066). */
  nameEn: Type.String(),
  status: EnabledStatus,
  remark: Type.String(),
  createdTime: Instant,
  dataCount: Type.Integer(),
});
export type DictTypeItem = Static<typeof DictTypeItem>;

export const DictTypeListQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 20 })),
    code: TextFilter,
    name: TextFilter,
    status: Type.Optional(EnabledStatus),
  },
  { additionalProperties: false },
);
export type DictTypeListQuery = Static<typeof DictTypeListQuery>;

const typeFields = {
  code: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z][A-Za-z0-9_]*$' }),
  name: Type.String({ minLength: 1, maxLength: 64, pattern: '\\S' }),
  /** English name; left out keeps the stored one on update, '' clears it. */
  nameEn: Type.Optional(Type.String({ maxLength: 64 })),
  status: Type.Optional(EnabledStatus),
  remark: Type.Optional(Type.String({ maxLength: 500 })),
};
/** POST /admin/dict/type creates; PUT /admin/dict/type updates (with id). */
export const DictTypeCreateBody = Type.Object(typeFields, { additionalProperties: false });
export type DictTypeCreateBody = Static<typeof DictTypeCreateBody>;
export const DictTypeUpdateBody = Type.Object({ id: Id, ...typeFields }, { additionalProperties: false });
export type DictTypeUpdateBody = Static<typeof DictTypeUpdateBody>;

/** A dictionary entry as the admin screen sees it (disabled ones included). */
export const DictDataItem = Type.Intersect([
  DictData,
  /** remarkEn: the English remark ('' = none; readers fall back to remark), decision 0097. */
  Type.Object({ remark: Type.String(), remarkEn: Type.String(), createdTime: Instant }),
]);
export type DictDataItem = Static<typeof DictDataItem>;

export const DictDataListQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 20 })),
    label: TextFilter,
    status: Type.Optional(EnabledStatus),
  },
  { additionalProperties: false },
);
export type DictDataListQuery = Static<typeof DictDataListQuery>;

export type ListClass = (typeof LIST_CLASSES)[number];
export const ListClass = Type.Union([
  Type.Literal('default'),
  Type.Literal('primary'),
  Type.Literal('success'),
  Type.Literal('info'),
  Type.Literal('warning'),
  Type.Literal('danger'),
]);

const dataFields = {
  typeCode: Type.String({ minLength: 1, maxLength: 64 }),
  label: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
  /** English label; left out keeps the stored one on update, '' clears it (decision 0066). */
  labelEn: Type.Optional(Type.String({ maxLength: 100 })),
  value: Type.String({ minLength: 1, maxLength: 500, pattern: '\\S' }),
  sort: Type.Optional(Type.Integer({ minimum: 0, maximum: 99999 })),
  cssClass: Type.Optional(Type.String({ maxLength: 100 })),
  listClass: Type.Optional(ListClass),
  isDefault: Type.Optional(Type.Boolean()),
  parentId: Type.Optional(Type.Union([Id, Type.Null()])),
  status: Type.Optional(EnabledStatus),
  remark: Type.Optional(Type.String({ maxLength: 500 })),
  /** English remark (a published price's note, a link's description); left out keeps the stored one on update, '' clears it (decision 0097). */
  remarkEn: Type.Optional(Type.String({ maxLength: 500 })),
};
/** POST /admin/dict/data creates; PUT /admin/dict/data updates (with id). */
export const DictDataCreateBody = Type.Object(dataFields, { additionalProperties: false });
export type DictDataCreateBody = Static<typeof DictDataCreateBody>;
export const DictDataUpdateBody = Type.Object({ id: Id, ...dataFields }, { additionalProperties: false });
export type DictDataUpdateBody = Static<typeof DictDataUpdateBody>;

/** GET /admin/dict/type-data/all: every type with all its entries (admin view). */
export const DictTypeWithData = Type.Intersect([DictTypeItem, Type.Object({ data: Type.Array(DictDataItem) })]);
export type DictTypeWithData = Static<typeof DictTypeWithData>;

/** Path parameters: DELETE /admin/dict/type/{id}, DELETE /admin/dict/data/{id}. */
export const DictIdParams = Type.Object({ id: Id }, { additionalProperties: false });
export type DictIdParams = Static<typeof DictIdParams>;
/** Path parameter: GET /admin/dict/data/{type}, GET /admin/dict/data/tree/{type} (a type code). */
export const DictTypeParams = Type.Object({ type: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
export type DictTypeParams = Static<typeof DictTypeParams>;
/** GET /admin/dict/data/tree/{type}: the type's enabled entries as a forest by parentId. */
export const DictDataTree = Type.Array(Type.Unsafe<DictDataNode>({}));
export type DictDataTree = Static<typeof DictDataTree>;
