import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ResetPasswordBody,
  RoleItem,
  SetSubscriptionBody,
  SetUserStatusBody,
  SubscriptionRecord,
  UserCreateBody,
  UserItem,
  UserListQuery,
  UserUpdateBody,
} from '@clearplay/contract';
import type { TablePage } from '../../../components/SearchTable/index.ts';
import { api } from '../../../lib/api-client.ts';

/** Every query of the users screen starts with this key; a change invalidates it. */
export const usersQueryKey = ['users'] as const;
export const userListQueryKey = [...usersQueryKey, 'list'] as const;
export const subscriptionsQueryKey = (userId: number) => [...usersQueryKey, 'subscriptions', userId] as const;
/** The role options of the user form and filter (GET /admin/role/all). */
export const roleOptionsQueryKey = ['roles', 'all'] as const;

export const getUsers = (params: UserListQuery, signal?: AbortSignal) =>
  api.get<TablePage<UserItem>>('/admin/user/list', { params, signal });

export const getSubscriptions = (userId: number, signal?: AbortSignal) =>
  api.get<SubscriptionRecord[]>('/admin/user/subscriptions', { params: { userId }, signal });

export const getRoleOptions = (signal?: AbortSignal) => api.get<RoleItem[]>('/admin/role/all', { signal });

export const useRoleOptions = () =>
  useQuery({ queryKey: roleOptionsQueryKey, queryFn: ({ signal }) => getRoleOptions(signal), staleTime: 60_000 });

export const useSubscriptions = (userId: number | null) =>
  useQuery({
    queryKey: subscriptionsQueryKey(userId ?? 0),
    queryFn: ({ signal }) => getSubscriptions(userId ?? 0, signal),
    enabled: userId !== null,
  });

/** A mutation that refreshes the users screen (and waits for it) when it succeeds. */
function useUserMutation<Vars, Result = null>(mutationFn: (vars: Vars) => Promise<Result>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersQueryKey }),
  });
}

export const useCreateUser = () => useUserMutation((body: UserCreateBody) => api.post<UserItem>('/admin/user/create', body));
export const useUpdateUser = () => useUserMutation((body: UserUpdateBody) => api.post<UserItem>('/admin/user/update', body));
export const useResetPassword = () => useUserMutation((body: ResetPasswordBody) => api.post<null>('/admin/user/resetPassword', body));
export const useResetSecondFactor = () => useUserMutation((id: number) => api.post<null>('/admin/user/resetSecondFactor', { id }));
export const useSetUserStatus = () => useUserMutation((body: SetUserStatusBody) => api.post<null>('/admin/user/setUserStatus', body));
export const useDeleteUser = () => useUserMutation((id: number) => api.get<null>('/admin/user/delete', { params: { id } }));
export const useSetSubscription = () => useUserMutation((body: SetSubscriptionBody) => api.post<UserItem>('/admin/setSubscription', body));
export const useCancelSubscription = () =>
  useUserMutation((userId: number) => api.get<null>('/admin/cancelSubscription', { params: { userId } }));
