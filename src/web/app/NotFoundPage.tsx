import { PathSearchIcon } from '@blueprintjs/icons';
import { NonIdealState } from '@blueprintjs/core';
import { FormattedMessage } from 'react-intl';
import { Link, useLocation } from 'react-router-dom';

export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <div data-testid="not-found">
      <NonIdealState
        icon={<PathSearchIcon size={48} />}
        title={<FormattedMessage id="app.notFound.title" />}
        description={<FormattedMessage id="app.notFound.body" values={{ path: <code>{pathname}</code> }} />}
        action={
          <Link to="/">
            <FormattedMessage id="app.notFound.home" />
          </Link>
        }
      />
    </div>
  );
}
