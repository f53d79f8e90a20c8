/** The message box: the navbar's bell; the full page is a screen (app/screens.ts). */
export { MessageBell } from './components/MessageBell.tsx';
export { messageKeys } from './api/messages.ts';
