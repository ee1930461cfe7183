import { helpId } from '@rjsf/utils';
import type { FieldHelpProps, FormContextType, RJSFSchema, StrictRJSFSchema } from '@rjsf/utils';
import { useTranslate } from '../../messages';

/** A field's `ui:help`, which may be a message id. */
export default function FieldHelpTemplate<T = unknown, S extends StrictRJSFSchema = RJSFSchema, F extends FormContextType = FormContextType>({
  help,
  fieldPathId,
}: FieldHelpProps<T, S, F>) {
  const translate = useTranslate();
  if (!help) return null;
  return <div id={helpId(fieldPathId)}>{typeof help === 'string' ? translate(help) : help}</div>;
}
