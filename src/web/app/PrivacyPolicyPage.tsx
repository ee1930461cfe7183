import { Card } from '@blueprintjs/core';
import { FormattedMessage } from 'react-intl';
import { Link, Outlet } from 'react-router-dom';
import { selectIsAuthenticated } from '@web/core/authSlice';
import { useAppSelector } from '@web/core/hooks';
import { LazyShell } from '@web/app/LazyShell';
import { CookieConsent } from '@web/features/login/CookieConsent';
import { PrivacyPolicy } from '@web/ui/privacy/PrivacyPolicy';
import '@web/features/login/login.css';
import { LoginBrand } from '@web/features/login/LoginBrand';

/** `/privacy-policy` is readable without signing in: inside the portal's frame when signed in, on its own otherwise. */
export function PrivacyPolicyFrame() {
  const authenticated = useAppSelector(selectIsAuthenticated);
  if (authenticated) return <LazyShell />;
  return (
    <div className="portal-login portal-public-page">
      <Card className="portal-login-card portal-login-card-wide" elevation={2}>
        <LoginBrand />
        <Outlet />
        <div className="portal-login-links">
          <Link to="/login" data-testid="privacy-sign-in">
            <FormattedMessage id="login.backToSignIn" />
          </Link>
        </div>
      </Card>
      <CookieConsent />
    </div>
  );
}

export function PrivacyPolicyPage() {
  return (
    <div className="portal-privacy-page">
      <PrivacyPolicy />
    </div>
  );
}
