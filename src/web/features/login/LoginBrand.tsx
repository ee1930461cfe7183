import { CellTowerIcon } from '@blueprintjs/icons';
import { H2 } from '@blueprintjs/core';
import { FormattedMessage } from 'react-intl';

/** The portal's name at the top of the login card and of the public pages. */
export function LoginBrand() {
  return (
    <div className="portal-login-brand">
      <CellTowerIcon size={28} />
      <H2>
        <FormattedMessage id="app.name" />
      </H2>
    </div>
  );
}
