import type { FormContextType, RJSFSchema, StrictRJSFSchema, WidgetProps } from '@rjsf/utils';
import { useTranslate } from '../../messages';
import CheckboxesWidget from '../CheckboxesWidget';
import { WidgetSelect } from '../OptionSelect';

/** An enum as a Blueprint HTMLSelect with a "Choose…" placeholder; option labels may be message ids. */
export default function SelectWidget<T = unknown, S extends StrictRJSFSchema = RJSFSchema, F extends FormContextType = FormContextType>(
  props: WidgetProps<T, S, F>,
) {
  const { options, multiple } = props;
  const translate = useTranslate();
  // A native single select cannot hold several values; a list of checkboxes can.
  if (multiple) return <CheckboxesWidget {...props} />;
  const enumOptions = (options.enumOptions ?? []).map((option) => ({
    value: option.value,
    label: translate(option.label),
    disabled: options.enumDisabled?.includes(option.value),
  }));
  return <WidgetSelect widget={props} choices={enumOptions} />;
}
