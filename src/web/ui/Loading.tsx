import { Spinner, SpinnerSize } from '@blueprintjs/core';
import { useIntl } from 'react-intl';

/** A spinner with a translated accessible name, for pages and lazy chunks on their way. */
export function Loading({ small = false }: { small?: boolean }) {
  const intl = useIntl();
  return (
    <div className="portal-loading" role="status" aria-label={intl.formatMessage({ id: 'app.loading' })}>
      <Spinner size={small ? SpinnerSize.SMALL : SpinnerSize.STANDARD} />
    </div>
  );
}
