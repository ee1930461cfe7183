import { Route, Routes } from 'react-router-dom';
import { LoginRoute } from '@web/features/login/LoginRoute';
import { PrivacyPolicyFrame, PrivacyPolicyPage } from '@web/app/PrivacyPolicyPage';
import { NotFoundPage } from './NotFoundPage';
import { RequireAuth } from './RequireAuth';
import { RequirePrivilege } from './RequirePrivilege';
import { ComingSoonPage } from './ComingSoonPage';
import { PLANNED_ROUTES } from './routePaths';
import { APP_ROUTES } from './routeTable';
import { LazyShell } from './LazyShell';

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/login" element={<LoginRoute />} />
      {/* Public: readable without signing in, in the portal's frame for a signed-in user. */}
      <Route path="/privacy-policy" element={<PrivacyPolicyFrame />}>
        <Route index element={<PrivacyPolicyPage />} />
      </Route>
      <Route
        element={
          <RequireAuth>
            <LazyShell />
          </RequireAuth>
        }
      >
        {APP_ROUTES.map((route) => (
          <Route key={route.path} path={route.path} element={<RequirePrivilege privilege={route.privilege}>{route.element}</RequirePrivilege>} />
        ))}
        {PLANNED_ROUTES.map((route) => (
          <Route
            key={route.path}
            path={route.path}
            element={
              <RequirePrivilege privilege={route.privilege}>
                <ComingSoonPage />
              </RequirePrivilege>
            }
          />
        ))}
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
