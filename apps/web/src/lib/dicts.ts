import { useMemo } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DictData, DictDataNode, DictStore } from '@clearplay/contract';
import { dictEndpoints, localizedLabel } from '@clearplay/contract/constants';
import { api } from './api-client.ts';
import { queryClient } from './query-client.ts';
import { isLoggedIn } from './storage.ts';

/**
 * The dictionary store: enabled dictionary data keyed by type code, flat
 * (dictData) and as trees (dictDataTree). Loaded once after user info, dropped on logout.
 * The query cache is the store; these helpers are its API.
 */
export const dictsQueryKey = ['dicts', 'all'] as const;

export const getDicts = (signal?: AbortSignal): Promise<DictStore> => api.call(dictEndpoints.all, { signal });

export const dictsQueryOptions = () =>
  queryOptions({
    queryKey: dictsQueryKey,
    queryFn: ({ signal }) => getDicts(signal),
    staleTime: Infinity,
  });

/** Spec §4: called by the route guard after user info loads. Errors were already shown. */
export function loadDicts(): void {
  void queryClient.prefetchQuery(dictsQueryOptions());
}

/** Called by logout. */
export function clearDicts(): void {
  queryClient.removeQueries({ queryKey: dictsQueryKey });
}

/** Reload after a dictionary screen changed something. */
export const refreshDicts = () => queryClient.invalidateQueries({ queryKey: dictsQueryKey });

const EMPTY_DATA: DictData[] = [];
const EMPTY_TREE: DictDataNode[] = [];

export const useDicts = () => useQuery({ ...dictsQueryOptions(), enabled: isLoggedIn() });

/**
 * THE label of a dictionary entry for a language (decision 0066): English readers get
 * `labelEn`, or the Chinese `label` when it is empty; everyone else the Chinese label.
 */
export const dictLabel = (entry: { label: string; labelEn?: string | null }, locale: string): string =>
  localizedLabel(entry.label, entry.labelEn, locale);

/** `dictLabel` bound to the current language (re-renders when the language changes). */
export function useDictLabel(): (entry: { label: string; labelEn?: string | null }) => string {
  const { i18n } = useTranslation();
  const locale = i18n.language;
  return useMemo(() => (entry) => dictLabel(entry, locale), [locale]);
}

const localizeTree = (nodes: readonly DictDataNode[], locale: string): DictDataNode[] =>
  nodes.map((node) => ({
    ...node,
    label: dictLabel(node, locale),
    ...(node.children ? { children: localizeTree(node.children, locale) } : {}),
  }));

/**
 * The entries of one dictionary type, e.g. useDictData('order_result'), with `label` already
 * in the reader's language: every tag, select and chart reading the store through this hook
 * (DictTag, DictSelect…) shows the current language, and switches with it without a reload.
 */
export function useDictData(type: string): DictData[] {
  const { i18n } = useTranslation();
  const locale = i18n.language;
  const data = useDicts().data?.dictData[type];
  return useMemo(
    () => (data === undefined ? EMPTY_DATA : data.map((entry) => ({ ...entry, label: dictLabel(entry, locale) }))),
    [data, locale],
  );
}

export function useDictTree(type: string): DictDataNode[] {
  const { i18n } = useTranslation();
  const locale = i18n.language;
  const tree = useDicts().data?.dictDataTree[type];
  return useMemo(() => (tree === undefined ? EMPTY_TREE : localizeTree(tree, locale)), [tree, locale]);
}
