import type { CSSProperties } from 'react';
import { Button, Intent } from '@blueprintjs/core';
import { getSubmitButtonOptions, getUiOptions } from '@rjsf/utils';
import type { FormContextType, RJSFSchema, StrictRJSFSchema, SubmitButtonProps } from '@rjsf/utils';
import { formContextOf } from '../../context';
import { useTranslate } from '../../messages';

const ACTIONS_STYLE: CSSProperties = { display: 'flex', gap: 8 };

/**
 * The form's actions: a primary submit button (label `ui:submitButtonOptions.submitText`, a message id or text,
 * `form.save` by default; its `props` reach the Blueprint Button, e.g. `disabled` and `loading`), and a Cancel
 * button when the form context has `onCancel`.
 */
export default function SubmitButton<T = unknown, S extends StrictRJSFSchema = RJSFSchema, F extends FormContextType = FormContextType>({
  uiSchema,
  registry,
}: SubmitButtonProps<T, S, F>) {
  const translate = useTranslate();
  const { norender, props: buttonProps } = getSubmitButtonOptions<T, S, F>(uiSchema);
  // RJSF fills in an English "Submit" when no text is given; look at what the uiSchema itself says.
  const submitText = getUiOptions<T, S, F>(uiSchema).submitButtonOptions?.submitText ?? 'form.save';
  const { onCancel } = formContextOf(registry);
  if (norender && !onCancel) return null;
  return (
    <div style={ACTIONS_STYLE}>
      {!norender && <Button type="submit" intent={Intent.PRIMARY} text={translate(submitText)} {...buttonProps} />}
      {onCancel && <Button type="button" text={translate('form.cancel')} onClick={() => onCancel()} />}
    </div>
  );
}
