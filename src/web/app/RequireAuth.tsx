import type { ReactNode } from 'react';
import { LoginPage } from '@web/features/login/LoginPage';
import { useAppSelector } from '@web/core/hooks';
import { selectIsAuthenticated } from '@web/core/authSlice';

/** The entry guard of every route: without a token the login screen shows in place of the page. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const authenticated = useAppSelector(selectIsAuthenticated);
  return authenticated ? children : <LoginPage />;
}
