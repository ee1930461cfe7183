/**
 * A new card's fields: number (Luhn, digits only), holder, the holder's ID number (its check digit), expiry and
 * CVV. The same checks as the server's, so a form says what is wrong before it is sent; the number and CVV go to
 * the processor and are never kept.
 */
import { FormGroup, HTMLSelect, InputGroup, Intent } from '@blueprintjs/core';
import { useIntl } from 'react-intl';
import { cardNumberMessage, idNumberMessage } from '@shared/payments';

export interface NewCard {
  number: string;
  holderName: string;
  holderIdNumber: string;
  expiryMonth: number;
  expiryYear: number;
  cvv: string;
}

export const EMPTY_CARD: NewCard = { number: '', holderName: '', holderIdNumber: '', expiryMonth: 1, expiryYear: new Date().getUTCFullYear() + 1, cvv: '' };

/** The message id of each field that is wrong (none when the card may be sent). */
export function cardErrors(card: NewCard): Partial<Record<keyof NewCard, string>> {
  const errors: Partial<Record<keyof NewCard, string>> = {};
  const number = cardNumberMessage(card.number);
  if (number) errors.number = number;
  if (!card.holderName.trim()) errors.holderName = 'validation.required';
  const id = idNumberMessage(card.holderIdNumber);
  if (id) errors.holderIdNumber = id;
  const now = new Date();
  if (card.expiryYear < now.getUTCFullYear() || (card.expiryYear === now.getUTCFullYear() && card.expiryMonth < now.getUTCMonth() + 1))
    errors.expiryMonth = 'payments.card.expired';
  if (card.cvv && !/^\d{3,4}$/.test(card.cvv)) errors.cvv = 'validation.input.invalid';
  return errors;
}

export function CardFields({
  card,
  onChange,
  errors,
  idPrefix,
}: {
  card: NewCard;
  onChange: (card: NewCard) => void;
  /** Message ids per field, shown once the form was sent. */
  errors: Partial<Record<keyof NewCard, string>>;
  idPrefix: string;
}) {
  const intl = useIntl();
  const set = (patch: Partial<NewCard>) => onChange({ ...card, ...patch });
  const text = (field: keyof NewCard, label: string, props: { inputMode?: 'numeric'; autoComplete?: string; maxLength?: number } = {}) => (
    <FormGroup
      label={intl.formatMessage({ id: label })}
      labelFor={`${idPrefix}-${field}`}
      intent={errors[field] ? Intent.DANGER : Intent.NONE}
      helperText={errors[field] && intl.formatMessage({ id: errors[field] })}
    >
      <InputGroup
        id={`${idPrefix}-${field}`}
        data-testid={`${idPrefix}-${field}`}
        value={String(card[field])}
        intent={errors[field] ? Intent.DANGER : Intent.NONE}
        onValueChange={(value) => set({ [field]: value })}
        {...props}
      />
    </FormGroup>
  );
  const year = new Date().getUTCFullYear();
  return (
    <div className="portal-card-fields">
      {text('number', 'payments.card.number', { inputMode: 'numeric', autoComplete: 'cc-number', maxLength: 23 })}
      {text('holderName', 'payments.card.holder', { autoComplete: 'cc-name' })}
      {text('holderIdNumber', 'payments.card.idNumber', { inputMode: 'numeric', maxLength: 9 })}
      <FormGroup
        label={intl.formatMessage({ id: 'payments.card.expiry' })}
        labelFor={`${idPrefix}-expiryMonth`}
        intent={errors.expiryMonth ? Intent.DANGER : Intent.NONE}
        helperText={errors.expiryMonth && intl.formatMessage({ id: errors.expiryMonth })}
      >
        <div className="portal-card-expiry">
          <HTMLSelect
            id={`${idPrefix}-expiryMonth`}
            data-testid={`${idPrefix}-expiryMonth`}
            value={card.expiryMonth}
            onChange={(e) => set({ expiryMonth: Number(e.currentTarget.value) })}
            options={Array.from({ length: 12 }, (_, i) => ({ value: i + 1, label: String(i + 1).padStart(2, '0') }))}
          />
          <HTMLSelect
            aria-label={intl.formatMessage({ id: 'payments.card.expiryYear' })}
            data-testid={`${idPrefix}-expiryYear`}
            value={card.expiryYear}
            onChange={(e) => set({ expiryYear: Number(e.currentTarget.value) })}
            options={Array.from({ length: 12 }, (_, i) => ({ value: year + i, label: String(year + i) }))}
          />
        </div>
      </FormGroup>
      {text('cvv', 'payments.card.cvv', { inputMode: 'numeric', autoComplete: 'cc-csc', maxLength: 4 })}
    </div>
  );
}
