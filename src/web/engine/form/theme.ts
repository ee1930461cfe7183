import { withTheme } from '@rjsf/core';
import type { FormProps, ThemeProps } from '@rjsf/core';
import type { FormContextType, RJSFSchema, StrictRJSFSchema } from '@rjsf/utils';
import type { ComponentType } from 'react';
import { generateTemplates } from './templates';
import { generateWidgets } from './widgets';
import { CountriesField } from './fields/CountriesField';
import { CustomValuesField } from './fields/CustomValuesField';
import { PrivilegesField } from './fields/PrivilegesField';
import { ReferencesField } from './fields/ReferencesField';
import { TagsField } from './fields/TagsField';

/** The Blueprint theme for RJSF: templates and widgets, to pass to `withTheme` or spread on a `Form`. */
export function generateTheme<T = unknown, S extends StrictRJSFSchema = RJSFSchema, F extends FormContextType = FormContextType>(): ThemeProps<T, S, F> {
  // Fields named by `ui:field` in a schema's x-ui.
  const fields = {
    privileges: PrivilegesField,
    countries: CountriesField,
    references: ReferencesField,
    custom: CustomValuesField,
    tags: TagsField,
  } as unknown as ThemeProps<T, S, F>['fields'];
  return { templates: generateTemplates<T, S, F>(), widgets: generateWidgets<T, S, F>(), fields };
}

/** RJSF's Form with the Blueprint theme, without the react-intl wiring `Form` adds. */
export function generateForm<T = unknown, S extends StrictRJSFSchema = RJSFSchema, F extends FormContextType = FormContextType>(): ComponentType<
  FormProps<T, S, F>
> {
  return withTheme<T, S, F>(generateTheme<T, S, F>());
}

export const Theme = generateTheme();
