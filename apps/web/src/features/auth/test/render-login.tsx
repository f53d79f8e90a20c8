import { createMemoryRouter, RouterProvider } from 'react-router';
import { renderInApp } from '../../../test/render.tsx';
import { LoginForm } from '../components/LoginForm.tsx';

/** The login form at /login, and a stand-in workplace where a sign-in lands (the sign-in tests). */
export function renderLogin() {
  const router = createMemoryRouter(
    [
      { path: '/login', element: <LoginForm /> },
      { path: '/dashboard/workplace', element: <main data-testid="workplace">workplace</main> },
    ],
    { initialEntries: ['/login'] },
  );
  return renderInApp(<RouterProvider router={router} />);
}
