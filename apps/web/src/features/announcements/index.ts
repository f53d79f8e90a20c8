/** Announcements: what other features may use (the workplace shows, publishes and deletes them). */
export { AnnouncementList, AnnouncementsDrawer } from './components/AnnouncementList.tsx';
export { AnnouncementView } from './components/AnnouncementView.tsx';
export { PublishAnnouncementModal } from './components/PublishAnnouncementModal.tsx';
