import { H5 } from '@blueprintjs/core';
import type { FormContextType, RJSFSchema, StrictRJSFSchema, TitleFieldProps } from '@rjsf/utils';
import { useTranslate } from '../../messages';

/** The title of an object or array, which may be a message id. */
export default function TitleField<T = unknown, S extends StrictRJSFSchema = RJSFSchema, F extends FormContextType = FormContextType>({
  id,
  title,
  optionalDataControl,
}: TitleFieldProps<T, S, F>) {
  const translate = useTranslate();
  return (
    <H5 id={id}>
      {translate(title)}
      {optionalDataControl}
    </H5>
  );
}
