import { ErrorIcon, LockIcon } from '@blueprintjs/icons';
import { NonIdealState } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { opensScreen } from '@shared/privileges';
import { useIsAdmin } from '@web/core/useIsAdmin';
import { useGetUserUiPrivilegesQuery } from '@web/core/authApi';
import { Loading } from '@web/ui/Loading';

/**
 * Shows the page only when the user holds its privilege (ADMIN_ONLY: when the user is the administrator;
 * SIGNED_IN: always); waits
 * while privileges load.
 */
export function RequirePrivilege({ privilege, children }: { privilege: string; children: ReactNode }) {
  const { data: granted, isError } = useGetUserUiPrivilegesQuery();
  const isAdmin = useIsAdmin();
  if (isError) {
    return <NonIdealState icon={<ErrorIcon size={48} />} title={<FormattedMessage id="app.error.generic" />} />;
  }
  if (!granted) return <Loading />;
  if (!opensScreen(granted, privilege, isAdmin)) {
    return (
      <div data-testid="no-privilege">
        <NonIdealState icon={<LockIcon size={48} />} description={<FormattedMessage id="app.noPrivilege" />} />
      </div>
    );
  }
  return children;
}
