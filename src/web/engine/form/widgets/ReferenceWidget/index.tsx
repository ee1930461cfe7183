import type { FormContextType, RJSFSchema, StrictRJSFSchema, Widget, WidgetProps } from '@rjsf/utils';
import { useIntl } from 'react-intl';
import { isPlanReference, planChoices } from '@web/app/pricingPlansApi';
import { formContextOf } from '../../context';
import { WidgetSelect } from '../OptionSelect';

/**
 * A widget for an id that refers to another entity. Its choices are `formContext.options[reference]`,
 * where the reference is `ui:options.reference`, else the property's `x-reference`, else the name the
 * widget was registered under (so `ui:widget: "reseller"` reads `options.reseller`). A plan reference also offers
 * "N/D" and names a plan the user cannot see "Set by admin".
 */
export function referenceWidget<T = unknown, S extends StrictRJSFSchema = RJSFSchema, F extends FormContextType = FormContextType>(
  defaultReference?: string,
): Widget<T, S, F> {
  return function ReferenceWidget(props: WidgetProps<T, S, F>) {
    const declared = props.options.reference ?? (props.schema as Record<string, unknown>)['x-reference'] ?? defaultReference;
    const reference = typeof declared === 'string' ? declared : undefined;
    const intl = useIntl();
    const loaded = (reference && formContextOf(props.registry).options?.[reference]) || [];
    const choices = isPlanReference(reference) ? planChoices(loaded, props.value, intl) : loaded;
    return <WidgetSelect widget={props} choices={choices} />;
  };
}

export default referenceWidget();
