import { Classes } from '@blueprintjs/core';
import { errorId } from '@rjsf/utils';
import type { FieldErrorProps, FormContextType, RJSFSchema, StrictRJSFSchema } from '@rjsf/utils';
import { useTranslate } from '../../messages';

/** A field's errors, one a line; the id is the one RJSF's inputs name in `aria-describedby`. */
export default function FieldErrorTemplate<T = unknown, S extends StrictRJSFSchema = RJSFSchema, F extends FormContextType = FormContextType>({
  errors = [],
  fieldPathId,
}: FieldErrorProps<T, S, F>) {
  const translate = useTranslate();
  const shown = errors.filter(Boolean);
  if (shown.length === 0) return null;
  return (
    <ul id={errorId(fieldPathId)} className={Classes.LIST_UNSTYLED}>
      {shown.map((error, i) => (
        <li key={i}>{typeof error === 'string' ? translate(error) : error}</li>
      ))}
    </ul>
  );
}
