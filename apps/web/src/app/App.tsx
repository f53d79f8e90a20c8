import { RouterProvider } from 'react-router/dom';
import { configureApiClient } from '../lib/api-client.ts';
import { AppProviders } from './providers.tsx';
import { router } from './router.tsx';

// The API client's navigation hooks (docs/product.md "The back office"): 401 -> root path; Re-Login -> logout + reload.
configureApiClient({
  goToRoot: () => void router.navigate('/'),
  relogin: async () => {
    // Loaded on demand: the session code (TanStack Query) stays out of the login page's first load.
    const { logout } = await import('./session.ts');
    await logout();
    window.location.reload();
  },
});

export function App() {
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
