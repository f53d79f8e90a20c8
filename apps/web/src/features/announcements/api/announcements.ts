import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AnnouncementAddBody, AnnouncementListQuery } from '@clearplay/contract';
import { announcementEndpoints } from '@clearplay/contract/constants';
import { api } from '../../../lib/api-client.ts';

/** Every announcement query starts with this key. */
export const announcementsQueryKey = ['announcements'] as const;
/** The workplace shows the latest announcements: its query is refreshed with them. */
const WORKPLACE_QUERY_KEY = ['workplace'] as const;

export const getAnnouncements = (query: AnnouncementListQuery, signal?: AbortSignal) =>
  api.call(announcementEndpoints.list, { query, signal });

/** GET /admin/announcement/detail: one announcement, for every signed-in role (what a notice opens). */
export const getAnnouncement = (id: number, signal?: AbortSignal) => api.call(announcementEndpoints.detail, { query: { id }, signal });

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
  useAnnouncementMutation((body: AnnouncementAddBody) => api.call(announcementEndpoints.add, { body }));
export const useDeleteAnnouncement = () =>
  useAnnouncementMutation((id: number) => api.call(announcementEndpoints.delete, { query: { id } }));
