/** The signed-in user's own account: the user centre and settings are screens (app/screens.ts). */
export { accountKeys } from './api/account.ts';
