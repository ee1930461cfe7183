/**
 * Message ids that may be missing from the catalogue: ids made from a value (a status, an operation, a field
 * name) and ids sent by the server. Such an id is looked up in the user's language and, when the catalogue lacks
 * it, a fallback is shown instead (the server's English text, the value itself, or the id).
 */
import type { IntlShape } from 'react-intl';

export type MessageValues = Record<string, string | number>;

/** Whether the catalogue of the user's language has a message with this id. */
export function hasMessage(intl: IntlShape, id: string): boolean {
  return Object.prototype.hasOwnProperty.call(intl.messages, id);
}

/** The message `id` in the user's language, or `fallback` (the id itself when none is given) if there is none. */
export function messageOr(intl: IntlShape, id: string, fallback: string = id, values?: MessageValues): string {
  return hasMessage(intl, id) ? intl.formatMessage({ id }, values) : fallback;
}
