import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ResetPasswordBody,
  SetSubscriptionBody,
  SetUserStatusBody,
  UserCreateBody,
  UserListQuery,
  UserUpdateBody,
} from '@clearplay/contract';
import { roleEndpoints, userEndpoints } from '@clearplay/contract/constants';
import { api } from '../../../lib/api-client.ts';
import { submissionKeys } from '../../../lib/submission-key.ts';

/** Every query of the users screen starts with this key; a change invalidates it. */
export const usersQueryKey = ['users'] as const;
export const userListQueryKey = [...usersQueryKey, 'list'] as const;
export const subscriptionsQueryKey = (userId: number) => [...usersQueryKey, 'subscriptions', userId] as const;
/** The role options of the user form and filter (GET /admin/role/all). */
export const roleOptionsQueryKey = ['roles', 'all'] as const;

export const getUsers = (params: UserListQuery, signal?: AbortSignal) => api.call(userEndpoints.list, { query: params, signal });

export const getSubscriptions = (userId: number, signal?: AbortSignal) =>
  api.call(userEndpoints.subscriptions, { query: { userId }, signal });

export const getRoleOptions = (signal?: AbortSignal) => api.call(roleEndpoints.all, { signal });

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

export const useCreateUser = () => useUserMutation((body: UserCreateBody) => api.call(userEndpoints.create, { body }));
export const useUpdateUser = () => useUserMutation((body: UserUpdateBody) => api.call(userEndpoints.update, { body }));
export const useResetPassword = () => useUserMutation((body: ResetPasswordBody) => api.call(userEndpoints.resetPassword, { body }));
export const useResetSecondFactor = () => useUserMutation((id: number) => api.call(userEndpoints.resetSecondFactor, { body: { id } }));
export const useSetUserStatus = () => useUserMutation((body: SetUserStatusBody) => api.call(userEndpoints.setStatus, { body }));
export const useDeleteUser = () => useUserMutation((id: number) => api.call(userEndpoints.delete, { query: { id } }));
/** Subscribes or renews; the same submission sent again goes with the same Idempotency-Key, so a renewal extends once (decision 0109). */
export function useSetSubscription() {
  const [keys] = useState(submissionKeys);
  return useUserMutation((body: SetSubscriptionBody) =>
    keys.send(body, (idempotencyKey) => api.call(userEndpoints.setSubscription, { body, idempotencyKey })),
  );
}
export const useCancelSubscription = () =>
  useUserMutation((userId: number) => api.call(userEndpoints.cancelSubscription, { query: { userId } }));
