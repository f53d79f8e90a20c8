import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  LIST_CLASSES,
  DictDataCreateBody,
  DictDataItem,
  DictDataListQuery,
  DictDataNode,
  DictDataUpdateBody,
  DictTypeCreateBody,
  DictTypeItem,
  DictTypeListQuery,
  DictTypeUpdateBody,
} from '@clearplay/contract';
import type { TablePage } from '../../../components/SearchTable/index.ts';
import { api } from '../../../lib/api-client.ts';
import { refreshDicts } from '../../../lib/dicts.ts';

/**
 * The contract builds listClass as `Type.Union(LIST_CLASSES.map(...))`; an array (not a
 * tuple) of literals makes its static type `never`. The wire shape is the six names.
 */
export type ListClass = (typeof LIST_CLASSES)[number];
export type DictDataCreate = Omit<DictDataCreateBody, 'listClass'> & { listClass?: ListClass };
export type DictDataUpdate = Omit<DictDataUpdateBody, 'listClass'> & { listClass?: ListClass };

/** The dictionary screen's queries (the dictionary store, lib/dicts.ts, has its own key). */
export const dictAdminQueryKey = ['dict-admin'] as const;
export const dictTypeListQueryKey = [...dictAdminQueryKey, 'types'] as const;
export const dictTypeOptionsQueryKey = [...dictAdminQueryKey, 'type-options'] as const;
export const dictDataListQueryKey = (type: string) => [...dictAdminQueryKey, 'data', type] as const;
export const dictDataTreeQueryKey = (type: string) => [...dictAdminQueryKey, 'tree', type] as const;

export const getDictTypes = (params: DictTypeListQuery, signal?: AbortSignal) =>
  api.get<TablePage<DictTypeItem>>('/admin/dict/type/list', { params, signal });

export const getDictData = (type: string, params: DictDataListQuery, signal?: AbortSignal) =>
  api.get<TablePage<DictDataItem>>(`/admin/dict/data/${encodeURIComponent(type)}`, { params, signal });

export const getDictDataTree = (type: string, signal?: AbortSignal) =>
  api.get<DictDataNode[]>(`/admin/dict/data/tree/${encodeURIComponent(type)}`, { signal });

/** Every type, for the data tab's type selector. */
export const useDictTypeOptions = () =>
  useQuery({
    queryKey: dictTypeOptionsQueryKey,
    queryFn: ({ signal }) => getDictTypes({ page: 1, pageSize: 200 }, signal),
    select: (page) => page.list,
  });

/** One type's entries as a tree (parents for the form, labels for the parent column). */
export const useDictDataTree = (type: string | null) =>
  useQuery({
    queryKey: dictDataTreeQueryKey(type ?? ''),
    queryFn: ({ signal }) => getDictDataTree(type ?? '', signal),
    enabled: !!type,
  });

/**
 * A dictionary change: the screen's lists reload, and so does the dictionary store, so this
 * session sees the change at once (other sessions at their next page load).
 */
function useDictMutation<Vars, Result = null>(mutationFn: (vars: Vars) => Promise<Result>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: dictAdminQueryKey }), refreshDicts()]),
  });
}

export const useCreateDictType = () => useDictMutation((body: DictTypeCreateBody) => api.post<DictTypeItem>('/admin/dict/type', body));
export const useUpdateDictType = () => useDictMutation((body: DictTypeUpdateBody) => api.put<DictTypeItem>('/admin/dict/type', body));
export const useDeleteDictType = () => useDictMutation((id: number) => api.delete<null>(`/admin/dict/type/${id}`));
export const useCreateDictData = () => useDictMutation((body: DictDataCreate) => api.post<DictDataItem>('/admin/dict/data', body));
export const useUpdateDictData = () => useDictMutation((body: DictDataUpdate) => api.put<DictDataItem>('/admin/dict/data', body));
export const useDeleteDictData = () => useDictMutation((id: number) => api.delete<null>(`/admin/dict/data/${id}`));
