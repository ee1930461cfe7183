import type { CSSProperties } from 'react';
import { Button, Intent } from '@blueprintjs/core';
import { getSubmitButtonOptions, getUiOptions } from '@rjsf/utils';
import type { FormContextType, RJSFSchema, StrictRJSFSchema, SubmitButtonProps, UiSchema } from '@rjsf/utils';
import { customName } from '@shared/customFields';
import { formContextOf } from '../../context';
import { useTranslate } from '../../messages';
import { SaveBlocked } from './SaveBlocked';

const ACTIONS_STYLE: CSSProperties = { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8 };
const BLOCKED_ID = 'form-save-blocked';

/**
 * The form's actions: a primary submit button (label `ui:submitButtonOptions.submitText`, a message id or text,
 * `form.save` by default; its `props` reach the Blueprint Button, e.g. `disabled` and `loading`), a Cancel
 * button when the form context has `onCancel`, and, while the submit button is disabled because fields break
 * their rules (`formContext.invalidFields`), which fields those are.
 */
export default function SubmitButton<T = unknown, S extends StrictRJSFSchema = RJSFSchema, F extends FormContextType = FormContextType>({
  uiSchema,
  registry,
}: SubmitButtonProps<T, S, F>) {
  const translate = useTranslate();
  const { norender, props: buttonProps } = getSubmitButtonOptions<T, S, F>(uiSchema);
  // RJSF fills in an English "Submit" when no text is given; look at what the uiSchema itself says.
  const submitText = getUiOptions<T, S, F>(uiSchema).submitButtonOptions?.submitText ?? 'form.save';
  const { onCancel, invalidFields = [], customFields = [] } = formContextOf(registry);
  const labels = Object.fromEntries(customFields.map((def) => [customName(def), def.label]));
  if (norender && !onCancel) return null;
  const blocked = !norender && Boolean(buttonProps?.disabled) && !buttonProps?.loading && invalidFields.length > 0;
  return (
    <div style={ACTIONS_STYLE}>
      {!norender && (
        <Button type="submit" intent={Intent.PRIMARY} text={translate(submitText)} aria-describedby={blocked ? BLOCKED_ID : undefined} {...buttonProps} />
      )}
      {onCancel && <Button type="button" text={translate('form.cancel')} onClick={() => onCancel()} />}
      {blocked && (
        <SaveBlocked id={BLOCKED_ID} fields={invalidFields} schema={registry.rootSchema} uiSchema={uiSchema as UiSchema | undefined} labels={labels} />
      )}
    </div>
  );
}
