import { Classes } from '@blueprintjs/core';
import type { DescriptionFieldProps, FormContextType, RJSFSchema, StrictRJSFSchema } from '@rjsf/utils';
import { useTranslate } from '../../messages';

/** A schema description, which may be a message id, as muted text. */
export default function DescriptionField<T = unknown, S extends StrictRJSFSchema = RJSFSchema, F extends FormContextType = FormContextType>({
  id,
  description,
}: DescriptionFieldProps<T, S, F>) {
  const translate = useTranslate();
  if (!description) return null;
  return (
    <div id={id} className={Classes.TEXT_MUTED}>
      {typeof description === 'string' ? translate(description) : description}
    </div>
  );
}
