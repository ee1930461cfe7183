/** The Blueprint theme for react-jsonschema-form, and the entity form built on it. */
export { Form } from './BlueprintForm';
export { generateForm, generateTheme, Theme } from './theme';
export { default as Templates, generateTemplates } from './templates';
export { default as Widgets, generateWidgets } from './widgets';
export { referenceWidget } from './widgets/ReferenceWidget';
export { formValidatorOf } from './validator';
export type { BlueprintFormContext, ReferenceOption } from './context';
export { EntityForm, type EntityFormProps } from './EntityForm';
