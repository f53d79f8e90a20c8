import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AccountAvatarBody,
  AccountPageQuery,
  AccountProfile,
  AccountUpdateBody,
  ActiveSession,
  EndedSessions,
  LedgerPage,
  LoginHistoryPage,
  PasswordChangeBody,
  PasswordChangeResult,
  SecondFactorDisableBody,
  SecondFactorRecoveryCodes,
  SecondFactorState,
  SubscriptionRecord,
  TotpEnrolment,
  UploadTokenData,
} from '@clearplay/contract';
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

export const getProfile = () => api.get<AccountProfile>('/admin/account/profile');
export const getLogins = (query: AccountPageQuery, signal?: AbortSignal) =>
  api.get<LoginHistoryPage>('/admin/account/logins', { params: { ...query }, signal });
export const getOwnLedger = (query: AccountPageQuery, signal?: AbortSignal) =>
  api.get<LedgerPage>('/admin/account/ledger', { params: { ...query }, signal });

export const useProfile = () => useQuery({ queryKey: accountKeys.profile, queryFn: getProfile });
export const useSessions = () =>
  useQuery({ queryKey: accountKeys.sessions, queryFn: () => api.get<ActiveSession[]>('/admin/account/sessions') });
export const useOwnSubscriptions = (enabled: boolean) =>
  useQuery({ queryKey: accountKeys.subscriptions, queryFn: () => api.get<SubscriptionRecord[]>('/admin/account/subscriptions'), enabled });

/** Edits the profile; the navbar's user (user info) is fetched again so it shows the new name. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AccountUpdateBody) => api.post<AccountProfile>('/admin/account/profile', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.all }),
  });
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PasswordChangeBody) => api.post<PasswordChangeResult>('/admin/account/password', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
}

export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<EndedSessions>('/admin/account/sessions/end-others'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions }),
  });
}

/**
 * The image uploader's `getToken` for an avatar (GET /admin/upload/token?purpose=avatar): the key
 * names this user, the token allows 2 MB of JPEG/PNG/GIF/WebP (decision 0062). Quiet: the widget
 * tells a failure itself.
 */
export const avatarTokenGetter: GetUploadToken = ({ key }) =>
  api.get<UploadTokenData>('/admin/upload/token', { params: { purpose: 'avatar', key }, quiet: true });

/** Saves my avatar ('' removes it); the navbar's user shows it at once. */
export function useSetAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AccountAvatarBody) => api.post<AccountProfile>('/admin/account/avatar', body),
    onSuccess: (saved) => {
      const current = userStore.get();
      if (current !== null) userStore.set({ ...current, avatar: saved.avatar });
      queryClient.setQueryData(accountKeys.profile, saved);
    },
  });
}

// ── two-step verification (decision 0091) ──

export const useSecondFactor = () =>
  useQuery({ queryKey: accountKeys.secondFactor, queryFn: () => api.get<SecondFactorState>('/admin/account/second-factor') });

/** Starts setting up an authenticator app: its secret and QR code. */
export const useStartEnrolment = () => useMutation({ mutationFn: () => api.post<TotpEnrolment>('/admin/account/second-factor/enrol') });

/** Confirms the set-up with the app's first code; answers the ten recovery codes (the state is fetched again once they are put away). */
export const useConfirmEnrolment = () =>
  useMutation({
    mutationFn: (code: string) => api.post<SecondFactorRecoveryCodes>('/admin/account/second-factor/confirm', { code }, { quiet: true }),
  });

export function useDisableSecondFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SecondFactorDisableBody) => api.post<null>('/admin/account/second-factor/disable', body, { quiet: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.secondFactor }),
  });
}
