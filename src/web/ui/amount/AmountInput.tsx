import { InputGroup, Intent, type InputGroupProps } from '@blueprintjs/core';
import { useIntl } from 'react-intl';
import { formatAmount, parseAmount } from './amount';

/**
 * A text input for an amount of money: typed freely, grouped in thousands the reader's way when it loses focus (when
 * what was typed is an amount; otherwise left as typed for the form's message).
 */
export function AmountInput({
  value,
  onValueChange,
  signed,
  ...props
}: Omit<InputGroupProps, 'value' | 'onValueChange'> & { value: string; onValueChange: (text: string) => void; signed?: boolean }) {
  const { locale } = useIntl();
  return (
    <InputGroup
      {...props}
      value={value}
      inputMode="decimal"
      autoComplete="off"
      onValueChange={onValueChange}
      onBlur={() => {
        const amount = parseAmount(value, { signed, locale });
        if (amount !== undefined) onValueChange(formatAmount(amount, locale));
      }}
      intent={props.intent ?? Intent.NONE}
    />
  );
}
