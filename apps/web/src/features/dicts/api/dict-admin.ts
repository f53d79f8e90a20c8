import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  LIST_CLASSES,
  DictDataCreateBody,
  DictDataListQuery,
  DictDataUpdateBody,
  DictTypeCreateBody,
  DictTypeListQuery,
  DictTypeUpdateBody,
} from '@clearplay/contract';
import { dictEndpoints } from '@clearplay/contract/constants';
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

export const getDictTypes = (query: DictTypeListQuery, signal?: AbortSignal) => api.call(dictEndpoints.typeList, { query, signal });

export const getDictData = (type: string, query: DictDataListQuery, signal?: AbortSignal) =>
  api.call(dictEndpoints.dataList, { params: { type }, query, signal });

export const getDictDataTree = (type: string, signal?: AbortSignal) => api.call(dictEndpoints.dataTree, { params: { type }, signal });

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

export const useCreateDictType = () => useDictMutation((body: DictTypeCreateBody) => api.call(dictEndpoints.createType, { body }));
export const useUpdateDictType = () => useDictMutation((body: DictTypeUpdateBody) => api.call(dictEndpoints.updateType, { body }));
export const useDeleteDictType = () => useDictMutation((id: number) => api.call(dictEndpoints.deleteType, { params: { id } }));
export const useCreateDictData = () => useDictMutation((body: DictDataCreate) => api.call(dictEndpoints.createData, { body }));
export const useUpdateDictData = () => useDictMutation((body: DictDataUpdate) => api.call(dictEndpoints.updateData, { body }));
export const useDeleteDictData = () => useDictMutation((id: number) => api.call(dictEndpoints.deleteData, { params: { id } }));
