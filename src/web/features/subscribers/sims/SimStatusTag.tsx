import { Intent, Tag } from '@blueprintjs/core';
import { useIntl, type IntlShape } from 'react-intl';
import { messageOr } from '@web/core/messages';

const STATUS_INTENT: Record<string, Intent> = { active: Intent.SUCCESS, suspended: Intent.WARNING, inventory: Intent.PRIMARY };

/** A SIM card's status as a coloured tag in the user's language. */
export function SimStatusTag({ status, large }: { status: string | null; large?: boolean }) {
  const intl = useIntl();
  if (!status) return <>{intl.formatMessage({ id: 'format.none' })}</>;
  return (
    <Tag minimal={!large} size={large ? 'large' : undefined} intent={STATUS_INTENT[status] ?? Intent.NONE} data-testid="sim-status" data-status={status}>
      {messageOr(intl, `subscriber.simStatus.${status}`, status)}
    </Tag>
  );
}

/** A SIM type in the user's language. */
export const simTypeText = (intl: IntlShape, type: string | null) => (type ? messageOr(intl, `subscriber.simType.${type}`, type) : null);
