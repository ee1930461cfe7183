import type { CSSProperties } from 'react';
import { buttonId, canExpand, descriptionId, getTemplate, getUiOptions, titleId } from '@rjsf/utils';
import type { FormContextType, ObjectFieldTemplateProps, RJSFSchema, StrictRJSFSchema } from '@rjsf/utils';

// A fieldset groups the properties for assistive technology; the browser's frame around it is not our look.
const FIELDSET_STYLE: CSSProperties = { border: 0, margin: 0, padding: 0, minWidth: 0 };

/** An object: its title and description (when shown), then its properties one under another. */
export default function ObjectFieldTemplate<T = unknown, S extends StrictRJSFSchema = RJSFSchema, F extends FormContextType = FormContextType>(
  props: ObjectFieldTemplateProps<T, S, F>,
) {
  const {
    title,
    description,
    properties,
    required,
    schema,
    uiSchema,
    registry,
    fieldPathId,
    formData,
    disabled,
    readonly,
    onAddProperty,
    optionalDataControl,
  } = props;
  const options = getUiOptions<T, S, F>(uiSchema);
  const TitleFieldTemplate = getTemplate<'TitleFieldTemplate', T, S, F>('TitleFieldTemplate', registry, options);
  const DescriptionFieldTemplate = getTemplate<'DescriptionFieldTemplate', T, S, F>('DescriptionFieldTemplate', registry, options);
  const { AddButton } = registry.templates.ButtonTemplates;
  const editable = !readonly && !disabled;
  return (
    <fieldset id={fieldPathId.$id} style={FIELDSET_STYLE}>
      {title && (
        <TitleFieldTemplate
          id={titleId(fieldPathId)}
          title={title}
          required={required}
          schema={schema}
          uiSchema={uiSchema}
          registry={registry}
          optionalDataControl={editable ? optionalDataControl : undefined}
        />
      )}
      {description && (
        <DescriptionFieldTemplate id={descriptionId(fieldPathId)} description={description} schema={schema} uiSchema={uiSchema} registry={registry} />
      )}
      {!editable && optionalDataControl}
      {properties.map((property) => property.content)}
      {canExpand<T, S, F>(schema, uiSchema, formData) && (
        <AddButton id={buttonId(fieldPathId, 'add')} onClick={onAddProperty} disabled={!editable} uiSchema={uiSchema} registry={registry} />
      )}
    </fieldset>
  );
}
