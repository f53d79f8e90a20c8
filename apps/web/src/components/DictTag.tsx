import { Tag } from 'antd';
import type { DictData } from '@clearplay/contract';
import { useDictData } from '../lib/dicts.ts';

/**
 * Tag colour for a dictionary entry's listClass (the back-office convention):
 * default → grey, primary → blue (processing), success → green, info → blue,
 * warning → orange, danger → red.
 */
export const LIST_CLASS_COLOR: Record<string, string> = {
  default: 'default',
  primary: 'processing',
  success: 'success',
  info: 'blue',
  warning: 'warning',
  danger: 'error',
};

export const listClassColor = (listClass: string | null | undefined): string => LIST_CLASS_COLOR[listClass ?? ''] ?? 'default';

/** A tag for a label with a listClass (also for entries not in the store, e.g. disabled ones). */
export function ListClassTag({ label, listClass, className }: { label: string; listClass?: string | null; className?: string }) {
  return (
    <Tag color={listClassColor(listClass)} className={className || undefined}>
      {label}
    </Tag>
  );
}

/** Finds an entry of a dictionary type by its value (values are strings; numbers match too). */
export function findDictEntry(entries: readonly DictData[], value: unknown): DictData | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  return entries.find((entry) => entry.value === String(value));
}

/**
 * A dictionary value rendered as the entry's tag, coloured by its listClass, read from the
 * dictionary store. A value the dictionary does not know shows as it is.
 *
 *   <DictTag type="common_status" value={user.status} />
 */
export function DictTag({ type, value, fallback }: { type: string; value: unknown; fallback?: string }) {
  const entry = findDictEntry(useDictData(type), value);
  if (!entry) {
    if (value === null || value === undefined || value === '') return <>-</>;
    return <span>{fallback ?? String(value)}</span>;
  }
  return <ListClassTag label={entry.label} listClass={entry.listClass} className={entry.cssClass} />;
}

/**
 * A value stored as text whose dictionary knows it (a game stored by its Chinese name), as
 * plain text in the reader's language: the entry's label, or the value as stored.
 *
 *   <DictText type="game" value={order.gameName} />
 */
export function DictText({ type, value }: { type: string; value: unknown }) {
  const entry = findDictEntry(useDictData(type), value);
  if (entry) return <>{entry.label}</>;
  return <>{value === null || value === undefined || value === '' ? '-' : String(value)}</>;
}
