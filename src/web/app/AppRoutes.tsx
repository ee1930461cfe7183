import { Route, Routes } from 'react-router-dom';
import { LoginRoute } from '@web/features/login/LoginRoute';
import { NotFoundPage } from './NotFoundPage';
import { RequireAuth } from './RequireAuth';
import { RequirePrivilege } from './RequirePrivilege';
import { APP_ROUTES } from './routeTable';
import { Shell } from './Shell';

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/login" element={<LoginRoute />} />
      <Route
        element={
          <RequireAuth>
            <Shell />
          </RequireAuth>
        }
      >
        {APP_ROUTES.map((route) => (
          <Route
            key={route.path}
            path={route.path}
            element={<RequirePrivilege privilege={route.privilege}>{route.element}</RequirePrivilege>}
          />
        ))}
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
