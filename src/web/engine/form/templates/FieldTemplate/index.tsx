import { FormGroup, Intent } from '@blueprintjs/core';
import { getTemplate, getUiOptions } from '@rjsf/utils';
import type { FieldTemplateProps, FormContextType, RJSFSchema, StrictRJSFSchema } from '@rjsf/utils';
import { useTranslate } from '../../messages';

/**
 * Every field: a Blueprint FormGroup with the translated title as its label, the description under it,
 * and the errors (or the help) as helper text, in the danger intent while there are errors.
 */
export default function FieldTemplate<T = unknown, S extends StrictRJSFSchema = RJSFSchema, F extends FormContextType = FormContextType>(
  props: FieldTemplateProps<T, S, F>,
) {
  const {
    id,
    label,
    children,
    errors,
    rawErrors,
    hideError,
    help,
    rawHelp,
    description,
    rawDescription,
    hidden,
    required,
    displayLabel,
    registry,
    schema,
    uiSchema,
  } = props;
  const translate = useTranslate();
  const uiOptions = getUiOptions<T, S, F>(uiSchema);
  const WrapIfAdditionalTemplate = getTemplate<'WrapIfAdditionalTemplate', T, S, F>('WrapIfAdditionalTemplate', registry, uiOptions);

  if (hidden) return <div hidden>{children}</div>;

  const hasErrors = !hideError && (rawErrors?.length ?? 0) > 0;
  // Objects and arrays lay out their own children; a FormGroup around them would nest labels.
  if (schema.type === 'object' || schema.type === 'array') {
    return (
      <WrapIfAdditionalTemplate {...props}>
        {children}
        {hasErrors && errors}
      </WrapIfAdditionalTemplate>
    );
  }

  const helperText =
    hasErrors || rawHelp ? (
      <>
        {hasErrors && errors}
        {rawHelp && help}
      </>
    ) : undefined;
  return (
    <WrapIfAdditionalTemplate {...props}>
      <FormGroup
        label={displayLabel ? translate(label) : undefined}
        labelFor={id}
        labelInfo={displayLabel && required ? translate('form.required') : undefined}
        subLabel={displayLabel && rawDescription ? description : undefined}
        helperText={helperText}
        intent={hasErrors ? Intent.DANGER : undefined}
      >
        {children}
      </FormGroup>
    </WrapIfAdditionalTemplate>
  );
}
