import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RoleCreateBody, RoleItem, RoleListQuery, RoleUpdateBody } from '@clearplay/contract';
import type { TablePage } from '../../../components/SearchTable/index.ts';
import { api } from '../../../lib/api-client.ts';

/** Every role query starts with this key (the users screen's role options too). */
export const rolesQueryKey = ['roles'] as const;
export const roleListQueryKey = [...rolesQueryKey, 'list'] as const;

export const getRoles = (params: RoleListQuery, signal?: AbortSignal) =>
  api.get<TablePage<RoleItem>>('/admin/role/list', { params, signal });

function useRoleMutation<Vars, Result = null>(mutationFn: (vars: Vars) => Promise<Result>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rolesQueryKey }),
  });
}

export const useCreateRole = () => useRoleMutation((body: RoleCreateBody) => api.post<RoleItem>('/admin/role/create', body));
export const useUpdateRole = () => useRoleMutation((body: RoleUpdateBody) => api.post<RoleItem>('/admin/role/update', body));
export const useDeleteRole = () => useRoleMutation((id: number) => api.get<null>('/admin/role/delete', { params: { id } }));
