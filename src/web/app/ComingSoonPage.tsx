import { BuildIcon } from '@blueprintjs/icons';
import { NonIdealState } from '@blueprintjs/core';
import { FormattedMessage } from 'react-intl';
import { Link } from 'react-router-dom';

/** A screen of the portal's route table that is not built yet. */
export function ComingSoonPage() {
  return (
    <div data-testid="coming-soon">
      <NonIdealState
        icon={<BuildIcon size={48} />}
        title={<FormattedMessage id="app.comingSoon.title" />}
        description={<FormattedMessage id="app.comingSoon.body" />}
        action={
          <Link to="/">
            <FormattedMessage id="app.notFound.home" />
          </Link>
        }
      />
    </div>
  );
}
