import { Button, Intent } from '@blueprintjs/core';
import { FormattedMessage } from 'react-intl';

/** The link under every login view but sign-in itself. */
export function BackToSignIn({ onBack }: { onBack: () => void }) {
  return (
    <div className="portal-login-links">
      <Button variant="minimal" intent={Intent.PRIMARY} onClick={onBack} data-testid="back-to-sign-in">
        <FormattedMessage id="login.backToSignIn" />
      </Button>
    </div>
  );
}
