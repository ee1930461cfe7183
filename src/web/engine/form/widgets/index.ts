import type { FormContextType, RegistryWidgetsType, RJSFSchema, StrictRJSFSchema } from '@rjsf/utils';
import CheckboxesWidget from './CheckboxesWidget';
import CheckboxWidget from './CheckboxWidget';
import CountryWidget from './CountryWidget';
import { referenceWidget } from './ReferenceWidget';
import SelectWidget from './SelectWidget';
import TextareaWidget from './TextareaWidget';

/**
 * The Blueprint widgets. Text, email, password, URL, number, date and date-time are RJSF's core widgets drawn
 * through our BaseInputTemplate; hidden is RJSF's plain hidden input. `country`, `reference` and one
 * reference widget per entity name (`reseller`) are ours, used by name in `ui:widget`.
 */
export function generateWidgets<T = unknown, S extends StrictRJSFSchema = RJSFSchema, F extends FormContextType = FormContextType>(): RegistryWidgetsType<
  T,
  S,
  F
> {
  return {
    CheckboxWidget,
    CheckboxesWidget,
    SelectWidget,
    TextareaWidget,
    country: CountryWidget,
    reference: referenceWidget<T, S, F>(),
    reseller: referenceWidget<T, S, F>('reseller'),
  } as RegistryWidgetsType<T, S, F>;
}

export default generateWidgets();
