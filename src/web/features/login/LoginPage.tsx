import { Button, Card, Intent } from '@blueprintjs/core';
import { lazy, Suspense, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { Loading } from '@web/ui/Loading';
import { PrivacyPolicy } from '@web/ui/privacy/PrivacyPolicy';
import { CookieConsent } from './CookieConsent';
import { SignInForm } from './SignInForm';
import './login.css';
import { BackToSignIn } from './BackToSignIn';
import { LoginBrand } from './LoginBrand';

// The join form (phone numbers, robot check) and the reset panel load when opened, not with the sign-in.
const JoinForm = lazy(() => import('./JoinForm').then((m) => ({ default: m.JoinForm })));
const PasswordResetPanel = lazy(() => import('./PasswordResetPanel').then((m) => ({ default: m.PasswordResetPanel })));

/**
 * The login screen's mutually exclusive views: sign in, join request, privacy policy and the password-reset
 * panel. The panel also opens from the address: `?password_reset=TOKEN` carries the token of a reset link.
 */
export type LoginView = 'signIn' | 'join' | 'privacy' | 'reset';

/** The query parameter of a reset link: its value is the reset token. */
export const RESET_TOKEN_PARAM = 'password_reset';

export function LoginPage() {
  const [chosen, setChosen] = useState<LoginView>('signIn');
  const [params] = useSearchParams();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const token = params.get(RESET_TOKEN_PARAM) || null;
  const view: LoginView = token ? 'reset' : chosen;

  /** Leaves the current view; the address loses its query parameters (such as a reset token). */
  const show = (next: LoginView) => {
    setChosen(next);
    if (search) navigate({ pathname, search: '' }, { replace: true });
  };
  const backToSignIn = () => show('signIn');

  return (
    <div className="portal-login">
      <Card className={`portal-login-card${view === 'join' || view === 'privacy' ? ' portal-login-card-wide' : ''}`} elevation={2}>
        <LoginBrand />
        {view === 'signIn' && (
          <>
            <SignInForm />
            <div className="portal-login-links">
              <Button variant="minimal" intent={Intent.PRIMARY} onClick={() => show('reset')} data-testid="show-reset">
                <FormattedMessage id="login.forgotPassword" />
              </Button>
              <Button variant="minimal" intent={Intent.PRIMARY} onClick={() => show('join')} data-testid="show-join">
                <FormattedMessage id="login.requestAccess" />
              </Button>
              <Button variant="minimal" intent={Intent.PRIMARY} onClick={() => show('privacy')} data-testid="show-privacy">
                <FormattedMessage id="login.privacyPolicy" />
              </Button>
            </div>
          </>
        )}
        {view === 'join' && (
          <>
            <Suspense fallback={<Loading />}>
              <JoinForm />
            </Suspense>
            <BackToSignIn onBack={backToSignIn} />
          </>
        )}
        {view === 'privacy' && (
          <>
            <div className="portal-login-privacy">
              <PrivacyPolicy headingLevel={3} />
            </div>
            <BackToSignIn onBack={backToSignIn} />
          </>
        )}
        {view === 'reset' && (
          <Suspense fallback={<Loading />}>
            <PasswordResetPanel token={token} onBack={backToSignIn} onRequestNewLink={() => show('reset')} />
          </Suspense>
        )}
      </Card>
      <CookieConsent onShowPolicy={view === 'privacy' ? undefined : () => show('privacy')} />
    </div>
  );
}
