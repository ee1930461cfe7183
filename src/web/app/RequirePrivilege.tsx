import { ErrorIcon, LockIcon } from '@blueprintjs/icons';
import { NonIdealState } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { hasPrivilege } from '@shared/privileges';
import { usePrivilegesQuery } from './authApi';
import { Loading } from './Loading';

/** Shows the page only when the user holds its privilege; waits while privileges load. */
export function RequirePrivilege({ privilege, children }: { privilege: string; children: ReactNode }) {
  const { data: granted, isError } = usePrivilegesQuery();
  if (isError) {
    return <NonIdealState icon={<ErrorIcon size={48} />} title={<FormattedMessage id="app.error.generic" />} />;
  }
  if (!granted) return <Loading />;
  if (!hasPrivilege(granted, privilege)) {
    return (
      <div data-testid="no-privilege">
        <NonIdealState icon={<LockIcon size={48} />} description={<FormattedMessage id="app.noPrivilege" />} />
      </div>
    );
  }
  return children;
}
