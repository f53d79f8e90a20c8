import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AnnouncementAddBody, AnnouncementItem, AnnouncementListQuery } from '@clearplay/contract';
import { api } from '../../../lib/api-client.ts';

/** Every announcement query starts with this key. */
export const announcementsQueryKey = ['announcements'] as const;
/** The workplace shows the latest announcements: its query is refreshed with them. */
const WORKPLACE_QUERY_KEY = ['workplace'] as const;

export const getAnnouncements = (params: AnnouncementListQuery, signal?: AbortSignal) =>
  api.get<{ list: AnnouncementItem[]; total: number }>('/admin/announcement/list', { params, signal });

/** GET /admin/announcement/detail: one announcement, for every signed-in role (what a notice opens). */
export const getAnnouncement = (id: number, signal?: AbortSignal) =>
  api.get<AnnouncementItem>('/admin/announcement/detail', { params: { id }, signal });

export const useAnnouncement = (id: number | null) =>
  useQuery({
    queryKey: [...announcementsQueryKey, 'detail', id],
    queryFn: ({ signal }) => getAnnouncement(id ?? 0, signal),
    enabled: id !== null,
  });

export const useAnnouncements = (params: AnnouncementListQuery) =>
  useQuery({ queryKey: [...announcementsQueryKey, params], queryFn: ({ signal }) => getAnnouncements(params, signal) });

function useAnnouncementMutation<Vars, Result>(mutationFn: (vars: Vars) => Promise<Result>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: announcementsQueryKey }),
        queryClient.invalidateQueries({ queryKey: WORKPLACE_QUERY_KEY }),
      ]),
  });
}

export const useAddAnnouncement = () =>
  useAnnouncementMutation((body: AnnouncementAddBody) => api.post<AnnouncementItem>('/admin/announcement/add', body));
export const useDeleteAnnouncement = () =>
  useAnnouncementMutation((id: number) => api.get<null>('/admin/announcement/delete', { params: { id } }));
