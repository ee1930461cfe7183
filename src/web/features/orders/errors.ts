import type { IntlShape } from 'react-intl';
import { apiErrorOf, type QueryError } from '@web/core/apiErrors';

/** The text of a refused order call: the first field's message (the server names the field and the rule), else `fallback`. */
export function apiErrorMessage(intl: IntlShape, error: unknown, fallback: string): string {
  const api = apiErrorOf(error as QueryError);
  const id = api?.fields?.[0]?.messageId;
  const text = id && intl.messages[id] ? intl.formatMessage({ id }) : intl.formatMessage({ id: fallback });
  const current = (api as { currentStatus?: string } | undefined)?.currentStatus;
  return current ? `${text} (${intl.formatMessage({ id: `orders.status.${current}` })})` : text;
}
