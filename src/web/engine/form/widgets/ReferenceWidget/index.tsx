import type { FormContextType, RJSFSchema, StrictRJSFSchema, Widget, WidgetProps } from '@rjsf/utils';
import { useEffect } from 'react';
import { useIntl } from 'react-intl';
import { assignablePlans, isPlanReference, planChoices } from '@web/core/pricingPlansApi';
import { chainOf, subtreeOf } from '@web/core/resellerTree';
import { formContextOf, type BlueprintFormContext, type ReferenceOption } from '../../context';
import { WidgetSelect } from '../OptionSelect';

/** The reseller the edited row belongs to: its `resellerId`, else the editor's own. */
function rowReseller(context: BlueprintFormContext): number | undefined {
  const chosen = context.data?.resellerId;
  return typeof chosen === 'number' ? chosen : context.ownResellerId;
}

/**
 * Which loaded rows the server would take, as the property's `ui:options` say:
 * - `sameReseller`: rows of the reseller the edited row belongs to (a user's role and account);
 * - `resellerOrAbove`: rows of that reseller or of one above it (a template's zones);
 * - `outsideSubtreeOf`: the field holding the edited reseller's own id; its parent is neither itself nor a reseller
 *   below it (a cycle).
 */
function allowedBy(options: Record<string, unknown>, context: BlueprintFormContext, loaded: readonly ReferenceOption[]) {
  const resellers = context.options?.reseller ?? [];
  const owner = rowReseller(context);
  const chain = options.resellerOrAbove ? chainOf(resellers, owner) : undefined;
  const ownField = options.outsideSubtreeOf;
  const within = typeof ownField === 'string' ? subtreeOf(loaded, context.data?.[ownField]) : undefined;
  return (o: ReferenceOption) => {
    if (within?.has(String(o.value))) return false;
    if (o.resellerId === undefined || owner === undefined) return true;
    if (options.sameReseller && o.resellerId !== owner) return false;
    return !chain || chain.has(o.resellerId);
  };
}

/**
 * A widget for an id that refers to another entity. Its choices are `formContext.options[reference]`,
 * where the reference is `ui:options.reference`, else the property's `x-reference`, else the name the
 * widget was registered under (so `ui:widget: "reseller"` reads `options.reseller`), narrowed to the rows the server
 * would take (`allowedBy`). A value the edit has put out of bounds (the row moved to another reseller) is cleared, so
 * the form asks for another. A plan reference also offers "N/D", names a plan set that the user sees but may not give (its parent's
 * assignment to its own reseller) by its name without offering it, and one the user cannot see "Set by admin".
 */
export function referenceWidget<T = unknown, S extends StrictRJSFSchema = RJSFSchema, F extends FormContextType = FormContextType>(
  defaultReference?: string,
): Widget<T, S, F> {
  return function ReferenceWidget(props: WidgetProps<T, S, F>) {
    const declared = props.options.reference ?? (props.schema as Record<string, unknown>)['x-reference'] ?? defaultReference;
    const reference = typeof declared === 'string' ? declared : undefined;
    const intl = useIntl();
    const context = formContextOf(props.registry);
    const loaded = (reference && context.options?.[reference]) || [];
    const allowed = allowedBy(props.options, context, loaded);
    const offered = loaded.filter(allowed);
    const stale = loaded.some((o) => String(o.value) === String(props.value) && !allowed(o));
    const { onChange, options } = props;
    useEffect(() => {
      if (stale) onChange(options.emptyValue);
    }, [stale, onChange, options.emptyValue]);
    const choices = isPlanReference(reference) ? planChoices(assignablePlans(offered), props.value, intl, loaded) : offered;
    return <WidgetSelect widget={props} choices={choices} />;
  };
}

export default referenceWidget();
