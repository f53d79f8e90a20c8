import { Type, type Static } from 'typebox';

/** Spec §3 "Dictionary data". */
export const DictData = Type.Object({
  id: Type.Integer(),
  typeCode: Type.String(),
  /** The Chinese label (zh-CN), always present. */
  label: Type.String(),
  /** The English label (en-US); '' when none, readers then show `label` (decision 0066). */
  labelEn: Type.String(),
  value: Type.String(),
  sort: Type.Integer(),
  cssClass: Type.String(),
  /** Tag colour: default, primary, success, info, warning, danger. */
  listClass: Type.String(),
  isDefault: Type.Boolean(),
  parentId: Type.Union([Type.Integer(), Type.Null()]),
  status: Type.Integer({ description: '1 enabled, 0 disabled' }),
});
export type DictData = Static<typeof DictData>;

export interface DictDataNode extends DictData {
  children?: DictDataNode[];
}

export const DictDataNode = Type.Cyclic(
  {
    DictDataNode: Type.Intersect([DictData, Type.Object({ children: Type.Optional(Type.Array(Type.Ref('DictDataNode'))) })]),
  },
  'DictDataNode',
);

/** Spec §3 "Dictionary store": enabled entries keyed by type code, flat and as trees. */
export const DictStore = Type.Object({
  dictData: Type.Record(Type.String(), Type.Array(DictData)),
  dictDataTree: Type.Record(Type.String(), Type.Array(Type.Unsafe<DictDataNode>({}))),
});
export type DictStore = Static<typeof DictStore>;
