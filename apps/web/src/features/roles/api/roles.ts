import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RoleCreateBody, RoleListQuery, RoleUpdateBody } from '@clearplay/contract';
import { roleEndpoints } from '@clearplay/contract/constants';
import { api } from '../../../lib/api-client.ts';

/** Every role query starts with this key (the users screen's role options too). */
export const rolesQueryKey = ['roles'] as const;
export const roleListQueryKey = [...rolesQueryKey, 'list'] as const;

export const getRoles = (query: RoleListQuery, signal?: AbortSignal) => api.call(roleEndpoints.list, { query, signal });

function useRoleMutation<Vars, Result = null>(mutationFn: (vars: Vars) => Promise<Result>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rolesQueryKey }),
  });
}

export const useCreateRole = () => useRoleMutation((body: RoleCreateBody) => api.call(roleEndpoints.create, { body }));
export const useUpdateRole = () => useRoleMutation((body: RoleUpdateBody) => api.call(roleEndpoints.update, { body }));
export const useDeleteRole = () => useRoleMutation((id: number) => api.call(roleEndpoints.delete, { query: { id } }));
