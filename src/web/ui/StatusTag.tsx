import { Intent, Tag } from '@blueprintjs/core';
import { useIntl } from 'react-intl';
import { messageOr } from '@web/core/messages';

/** In service green, held back amber, waiting blue, failed red. */
const INTENTS: Record<string, Intent> = {
  active: Intent.SUCCESS,
  success: Intent.SUCCESS,
  approved: Intent.SUCCESS,
  suspended: Intent.WARNING,
  pending: Intent.PRIMARY,
  error: Intent.DANGER,
  failed: Intent.DANGER,
};

/** A status as a coloured tag with its name in the user's language. */
export function StatusTag({ value, large }: { value: string | null | undefined; large?: boolean }) {
  const intl = useIntl();
  if (!value) return <>{intl.formatMessage({ id: 'format.none' })}</>;
  return (
    <Tag minimal={!large} size={large ? 'large' : undefined} intent={INTENTS[value] ?? Intent.NONE} data-status={value} data-testid="subscriber-status">
      {messageOr(intl, `subscriber.status.${value}`, value)}
    </Tag>
  );
}
