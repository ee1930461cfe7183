import type { FormContextType, RJSFSchema, StrictRJSFSchema, Widget, WidgetProps } from '@rjsf/utils';
import { useIntl } from 'react-intl';
import { isPlanReference, planChoices } from '@web/core/pricingPlansApi';
import { formContextOf, type BlueprintFormContext, type ReferenceOption } from '../../context';
import { WidgetSelect } from '../OptionSelect';

/**
 * A widget for an id that refers to another entity. Its choices are `formContext.options[reference]`,
 * where the reference is `ui:options.reference`, else the property's `x-reference`, else the name the
 * widget was registered under (so `ui:widget: "reseller"` reads `options.reseller`). A plan reference also offers
 * "N/D" and names a plan the user cannot see "Set by admin".
 */
/**
 * `ui:options.sameReseller`: only rows of the reseller the edited row belongs to (its `resellerId`, else the editor's
 * own), as the server accepts (e.g. a user's role and account); the value already chosen stays listed.
 */
function sameResellerChoices(options: ReferenceOption[], context: BlueprintFormContext, value: unknown): ReferenceOption[] {
  const chosen = context.data?.resellerId;
  const resellerId = typeof chosen === 'number' ? chosen : context.ownResellerId;
  if (resellerId === undefined) return options;
  return options.filter((o) => o.resellerId === undefined || o.resellerId === resellerId || String(o.value) === String(value));
}

export function referenceWidget<T = unknown, S extends StrictRJSFSchema = RJSFSchema, F extends FormContextType = FormContextType>(
  defaultReference?: string,
): Widget<T, S, F> {
  return function ReferenceWidget(props: WidgetProps<T, S, F>) {
    const declared = props.options.reference ?? (props.schema as Record<string, unknown>)['x-reference'] ?? defaultReference;
    const reference = typeof declared === 'string' ? declared : undefined;
    const intl = useIntl();
    const context = formContextOf(props.registry);
    const loaded = (reference && context.options?.[reference]) || [];
    const offered = props.options.sameReseller ? sameResellerChoices(loaded, context, props.value) : loaded;
    const choices = isPlanReference(reference) ? planChoices(offered, props.value, intl) : offered;
    return <WidgetSelect widget={props} choices={choices} />;
  };
}

export default referenceWidget();
