import { useAnnouncement } from '../api/announcements.ts';
import { AnnouncementView } from './AnnouncementView.tsx';

/**
 * Reads announcement `id` (null: closed) for any signed-in role: title, the sanitized body, type,
 * date and author. What a notice in the message box opens. An announcement deleted since is a
 * 404 whose message the API client shows; nothing opens then.
 */
export default function AnnouncementReader({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { data } = useAnnouncement(id);
  return <AnnouncementView item={id !== null && data?.id === id ? data : null} onClose={onClose} />;
}
