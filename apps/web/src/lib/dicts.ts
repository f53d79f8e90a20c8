import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DictData, DictDataNode, DictStore } from '@clearplay/contract';
import { api } from './api-client.ts';
import { queryClient } from './query-client.ts';
import { isLoggedIn } from './storage.ts';

/**
 * The dictionary store of spec §3: enabled dictionary data keyed by type code, flat
 * (dictData) and as trees (dictDataTree). Loaded once after user info, dropped on logout.
 * The query cache is the store; these helpers are its API.
 */
export const dictsQueryKey = ['dicts', 'all'] as const;

export const getDicts = (signal?: AbortSignal): Promise<DictStore> => api.get<DictStore>('/admin/dict/all', { signal });

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

/** The entries of one dictionary type, e.g. useDictData('order_result'). */
export function useDictData(type: string): DictData[] {
  return useDicts().data?.dictData[type] ?? EMPTY_DATA;
}

export function useDictTree(type: string): DictDataNode[] {
  return useDicts().data?.dictDataTree[type] ?? EMPTY_TREE;
}
