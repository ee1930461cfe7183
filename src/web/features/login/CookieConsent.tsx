import { Button, Intent } from '@blueprintjs/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';

const KEY = 'portal.cookieConsent';

export function cookieConsentGiven(): boolean {
  try {
    return localStorage.getItem(KEY) === 'accepted';
  } catch {
    return false;
  }
}

/** Records or withdraws the consent; withdrawn, the banner asks again on the next visit to the sign-in page. */
export function setCookieConsent(given: boolean): void {
  try {
    if (given) localStorage.setItem(KEY, 'accepted');
    else localStorage.removeItem(KEY);
  } catch {
    // Without storage the banner simply comes back next time.
  }
}

/**
 * A bottom banner that stays until Continue is pressed; the answer is kept in local storage. With
 * `onShowPolicy` it also offers the privacy policy.
 */
export function CookieConsent({ onShowPolicy }: { onShowPolicy?: () => void }) {
  const intl = useIntl();
  const [visible, setVisible] = useState(() => !cookieConsentGiven());
  if (!visible) return null;
  const accept = () => {
    setCookieConsent(true);
    setVisible(false);
  };
  return (
    <div className="portal-cookie-banner" role="region" aria-label={intl.formatMessage({ id: 'cookies.label' })} data-testid="cookie-banner">
      <p>
        <FormattedMessage id="cookies.message" />
      </p>
      {onShowPolicy && (
        <Button variant="minimal" className="portal-cookie-policy" onClick={onShowPolicy} data-testid="cookie-policy">
          <FormattedMessage id="cookies.policy" />
        </Button>
      )}
      <Button intent={Intent.PRIMARY} onClick={accept} data-testid="cookie-continue">
        <FormattedMessage id="cookies.continue" />
      </Button>
    </div>
  );
}
