/**
 * Announcements: what other features may use (the workplace shows, publishes and deletes them;
 * the message box opens one from its notice, loading the reader on first use).
 */
export { AnnouncementList, AnnouncementsDrawer } from './components/AnnouncementList.tsx';
export { AnnouncementView } from './components/AnnouncementView.tsx';
export { PublishAnnouncementModal } from './components/PublishAnnouncementModal.tsx';
export { default as AnnouncementReader } from './components/AnnouncementReader.tsx';
