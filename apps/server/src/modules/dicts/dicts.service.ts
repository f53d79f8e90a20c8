import type { DictData, DictDataNode, DictStore } from '@clearplay/contract';
import type { Db } from '../../db/index.ts';
import type { DictDataRow } from '../../db/schema.ts';
import * as repo from './dicts.repository.ts';

export const toDictData = (row: DictDataRow): DictData => ({
  id: row.id,
  typeCode: row.typeCode,
  label: row.label,
  value: row.value,
  sort: row.sort,
  cssClass: row.cssClass,
  listClass: row.listClass,
  isDefault: row.isDefault === 1,
  parentId: row.parentId,
  status: row.status,
});

/** Rows of one type -> forest by parentId; a row whose parent is absent becomes a root. */
export function buildTree(items: readonly DictData[]): DictDataNode[] {
  const nodes = new Map<number, DictDataNode>(items.map((item) => [item.id, { ...item }]));
  const roots: DictDataNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
    if (parent === undefined || parent === node) roots.push(node);
    else (parent.children ??= []).push(node);
  }
  return roots;
}

/** Spec §3 "Dictionary store": enabled entries keyed by type code, flat and as trees. */
export async function getDictStore(db: Db): Promise<DictStore> {
  const dictData: Record<string, DictData[]> = {};
  for (const row of await repo.listEnabledData(db)) (dictData[row.typeCode] ??= []).push(toDictData(row));
  const dictDataTree: Record<string, DictDataNode[]> = {};
  for (const [code, items] of Object.entries(dictData)) dictDataTree[code] = buildTree(items);
  return { dictData, dictDataTree };
}
