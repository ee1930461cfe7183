import type { ReactNode } from 'react';
import { LoginPage } from '@web/features/login/LoginPage';
import { useAppSelector } from './hooks';
import { selectIsAuthenticated } from './authSlice';

/** The entry guard of every route: without a token the login screen shows in place of the page. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const authenticated = useAppSelector(selectIsAuthenticated);
  return authenticated ? children : <LoginPage />;
}
