import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AccountAvatarBody,
  AccountPageQuery,
  AccountUpdateBody,
  PasswordChangeBody,
  SecondFactorDisableBody,
} from '@clearplay/contract';
import { accountEndpoints, uploadEndpoints } from '@clearplay/contract/constants';
import type { GetUploadToken } from '../../../components/ImageUploader/index.ts';
import { api } from '../../../lib/api-client.ts';
import { userStore } from '../../../lib/current-user.ts';

/** Query keys of the signed-in user's own account. */
export const accountKeys = {
  all: ['account'] as const,
  profile: ['account', 'profile'] as const,
  sessions: ['account', 'sessions'] as const,
  logins: ['account', 'logins'] as const,
  ledger: ['account', 'ledger'] as const,
  subscriptions: ['account', 'subscriptions'] as const,
  secondFactor: ['account', 'second-factor'] as const,
};

export const getProfile = () => api.call(accountEndpoints.profile);
export const getLogins = (query: AccountPageQuery, signal?: AbortSignal) => api.call(accountEndpoints.logins, { query, signal });
export const getOwnLedger = (query: AccountPageQuery, signal?: AbortSignal) => api.call(accountEndpoints.ledger, { query, signal });

export const useProfile = () => useQuery({ queryKey: accountKeys.profile, queryFn: getProfile });
export const useSessions = () => useQuery({ queryKey: accountKeys.sessions, queryFn: () => api.call(accountEndpoints.sessions) });
export const useOwnSubscriptions = (enabled: boolean) =>
  useQuery({ queryKey: accountKeys.subscriptions, queryFn: () => api.call(accountEndpoints.subscriptions), enabled });

/** Edits the profile; the navbar's user (user info) is fetched again so it shows the new name. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AccountUpdateBody) => api.call(accountEndpoints.updateProfile, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.all }),
  });
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PasswordChangeBody) => api.call(accountEndpoints.password, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
}

export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.call(accountEndpoints.endOtherSessions),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
}

/**
 * The image uploader's `getToken` for an avatar (GET /admin/upload/token?purpose=avatar): the key
 * names this user, the token allows 2 MB of JPEG/PNG/GIF/WebP (decision 0062). Quiet: the widget
 * tells a failure itself.
 */
export const avatarTokenGetter: GetUploadToken = ({ key }) =>
  api.call(uploadEndpoints.token, { query: { purpose: 'avatar', key }, quiet: true });

/** Saves my avatar ('' removes it); the navbar's user shows it at once. */
export function useSetAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AccountAvatarBody) => api.call(accountEndpoints.avatar, { body }),
    onSuccess: (saved) => {
      const current = userStore.get();
      if (current !== null) userStore.set({ ...current, avatar: saved.avatar });
      queryClient.setQueryData(accountKeys.profile, saved);
    },
  });
}

// ── two-step verification (decision 0091) ──

export const useSecondFactor = () =>
  useQuery({ queryKey: accountKeys.secondFactor, queryFn: () => api.call(accountEndpoints.secondFactor) });

/** Starts setting up an authenticator app: its secret and QR code. */
export const useStartEnrolment = () => useMutation({ mutationFn: () => api.call(accountEndpoints.secondFactorEnrol) });

/** Confirms the set-up with the app's first code; answers the ten recovery codes (the state is fetched again once they are put away). */
export const useConfirmEnrolment = () =>
  useMutation({
    mutationFn: (code: string) => api.call(accountEndpoints.secondFactorConfirm, { body: { code }, quiet: true }),
  });

export function useDisableSecondFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SecondFactorDisableBody) => api.call(accountEndpoints.secondFactorDisable, { body, quiet: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.secondFactor }),
  });
}
