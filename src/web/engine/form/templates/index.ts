import type { FormContextType, RJSFSchema, StrictRJSFSchema, TemplatesType } from '@rjsf/utils';
import BaseInputTemplate from './BaseInputTemplate';
import DescriptionField from './DescriptionField';
import ErrorList from './ErrorList';
import FieldErrorTemplate from './FieldErrorTemplate';
import FieldHelpTemplate from './FieldHelpTemplate';
import FieldTemplate from './FieldTemplate';
import ObjectFieldTemplate from './ObjectFieldTemplate';
import SubmitButton from './SubmitButton';
import TitleField from './TitleField';

export type ThemeTemplates<T, S extends StrictRJSFSchema, F extends FormContextType> = Partial<Omit<TemplatesType<T, S, F>, 'ButtonTemplates'>> & {
  ButtonTemplates?: Partial<TemplatesType<T, S, F>['ButtonTemplates']>;
};

/** The Blueprint templates; RJSF's core ones fill in the rest (arrays, additional properties, icon buttons). */
export function generateTemplates<T = unknown, S extends StrictRJSFSchema = RJSFSchema, F extends FormContextType = FormContextType>(): ThemeTemplates<
  T,
  S,
  F
> {
  return {
    BaseInputTemplate,
    DescriptionFieldTemplate: DescriptionField,
    ErrorListTemplate: ErrorList,
    FieldErrorTemplate,
    FieldHelpTemplate,
    FieldTemplate,
    ObjectFieldTemplate,
    TitleFieldTemplate: TitleField,
    ButtonTemplates: { SubmitButton },
  };
}

export default generateTemplates();
