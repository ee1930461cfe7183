import { CellTowerIcon } from '@blueprintjs/icons';
import { Card, H2 } from '@blueprintjs/core';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { CookieConsent } from './CookieConsent';
import { SignInForm } from './SignInForm';

/**
 * The login screen holds mutually exclusive views: sign in, join request and privacy policy (a password-reset
 * panel joins them). Only sign-in exists so far; the others plug into `LoginView`.
 */
export type LoginView = 'signIn';

export function LoginPage() {
  const [view] = useState<LoginView>('signIn');
  return (
    <div className="portal-login">
      <Card className="portal-login-card" elevation={2}>
        <div className="portal-login-brand">
          <CellTowerIcon size={28} />
          <H2>
            <FormattedMessage id="app.name" />
          </H2>
        </div>
        {view === 'signIn' && <SignInForm />}
      </Card>
      <CookieConsent />
    </div>
  );
}
