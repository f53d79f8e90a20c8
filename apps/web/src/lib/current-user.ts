import type { CurrentUser } from '@clearplay/contract';
import { createStore, useStore } from './store.ts';

/** The logged-in user (the "current user"), set by the route guard once user info loads. */
export const userStore = createStore<CurrentUser | null>(null);

export const useCurrentUser = (): CurrentUser | null => useStore(userStore);

/** The current role name, or null before user info loads. */
export const useRoleName = (): string | null => useStore(userStore, (user) => user?.role.name ?? null);

export const resetUser = (): void => userStore.set(null);
