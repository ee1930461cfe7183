import { Navigate } from 'react-router-dom';
import { useAppSelector } from '@web/app/hooks';
import { selectIsAuthenticated } from '@web/app/authSlice';
import { LoginPage } from './LoginPage';

/** `/login`: a signed-in user has nothing to do here and goes to the dashboard. */
export function LoginRoute() {
  const authenticated = useAppSelector(selectIsAuthenticated);
  return authenticated ? <Navigate to="/" replace /> : <LoginPage />;
}
