import { Navigate, useSearchParams } from 'react-router-dom';
import { useAppSelector } from '@web/core/hooks';
import { selectIsAuthenticated } from '@web/core/authSlice';
import { LoginPage, RESET_TOKEN_PARAM } from './LoginPage';

/**
 * `/login`: a signed-in user has nothing to do here and goes to the dashboard, unless they followed a
 * password reset link, which still opens.
 */
export function LoginRoute() {
  const authenticated = useAppSelector(selectIsAuthenticated);
  const [params] = useSearchParams();
  return authenticated && !params.get(RESET_TOKEN_PARAM) ? <Navigate to="/" replace /> : <LoginPage />;
}
