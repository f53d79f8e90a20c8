/** Switch roles (decision 0060): the super admin's role picker and the "viewing as" banner. */
export { ViewAsModal } from './components/ViewAsModal.tsx';
export { ViewAsBanner } from './components/ViewAsBanner.tsx';
export { endViewAs } from './api/view-as.ts';
