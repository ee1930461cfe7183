/**
 * A reseller's payments on its page: the history (paged, sorted and filtered on the server), and for the
 * administrator a manual payment (which may be negative, a correction) and the reset of confirmed payments.
 */
import { Button, Callout, FormGroup, H3, InputGroup, Intent } from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { apiErrorOf } from '@web/core/apiErrors';
import { usePostPaymentsResetMutation, usePostPaymentsSubmitManualMutation } from '@web/core/paymentsApi';
import { useCaller } from '@web/core/useCaller';
import { AmountInput } from '@web/ui/amount/AmountInput';
import { parseAmount, paymentRangeError } from '@web/ui/amount/amount';
import { PaymentsTable } from '@web/ui/payments/PaymentsTable';
import { showToast } from '@web/ui/toaster';

function ManualPaymentForm({ resellerId }: { resellerId: number }) {
  const intl = useIntl();
  const [amountText, setAmountText] = useState('');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<{ amount?: string; description?: string; form?: string }>({});
  // One key per payment entered: a double submit records it once.
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [submit, submitting] = usePostPaymentsSubmitManualMutation();
  const send = async (event: FormEvent) => {
    event.preventDefault();
    const amount = parseAmount(amountText, { signed: true, locale: intl.locale });
    const found = {
      amount: !amountText.trim()
        ? 'payments.amount.required'
        : amount === undefined
          ? 'payments.amount.invalid'
          : amount === 0
            ? 'payments.amount.nonZero'
            : paymentRangeError(amount),
      description: description.trim().length < 2 ? 'payments.manual.descriptionRequired' : undefined,
    };
    setErrors(found);
    if (found.amount || found.description || amount === undefined) return;
    const result = await submit({ resellerId, amount, description: description.trim(), idempotencyKey: key });
    if (result.error) {
      const fields = apiErrorOf(result.error)?.fields ?? [];
      return setErrors({
        amount: fields.find((f) => f.field === 'amount')?.messageId,
        description: fields.find((f) => f.field === 'description')?.messageId,
        form: fields.length ? undefined : 'payments.error.general',
      });
    }
    showToast({
      intent: Intent.SUCCESS,
      message: intl.formatMessage({ id: 'payments.manual.done' }, { amount: intl.formatNumber(amount, { style: 'currency', currency: 'USD' }) }),
    });
    setAmountText('');
    setDescription('');
    setKey(crypto.randomUUID());
  };
  const message = (id: string | undefined) => id && intl.formatMessage({ id });
  return (
    <form onSubmit={send} noValidate className="portal-manual-payment" data-testid="manual-payment-form">
      <FormGroup
        label={intl.formatMessage({ id: 'payments.manual.amount' })}
        labelFor="manual-amount"
        intent={errors.amount ? Intent.DANGER : Intent.NONE}
        helperText={message(errors.amount)}
      >
        <AmountInput id="manual-amount" data-testid="manual-amount" signed value={amountText} onValueChange={setAmountText} leftIcon="dollar" />
      </FormGroup>
      <FormGroup
        label={intl.formatMessage({ id: 'payments.manual.description' })}
        labelFor="manual-description"
        intent={errors.description ? Intent.DANGER : Intent.NONE}
        helperText={message(errors.description)}
      >
        <InputGroup id="manual-description" data-testid="manual-description" value={description} maxLength={250} onValueChange={setDescription} />
      </FormGroup>
      {errors.form && <Callout intent={Intent.DANGER}>{message(errors.form)}</Callout>}
      <Button type="submit" intent={Intent.PRIMARY} loading={submitting.isLoading} data-testid="manual-payment-save">
        <FormattedMessage id="payments.manual.submit" />
      </Button>
    </form>
  );
}

export function ResellerPaymentsPanel({ id }: { id: number }) {
  const intl = useIntl();
  const caller = useCaller();
  const admin = Boolean(caller?.isAdmin);
  const [reset] = usePostPaymentsResetMutation();
  const resetPayments = async (paymentIds: number[]) => {
    const result = await reset({ paymentIds });
    if (result.error) return void showToast({ intent: Intent.DANGER, message: intl.formatMessage({ id: 'payments.error.general' }) });
    const done = result.data.results.filter((r) => r.outcome === 'reset').length;
    showToast({
      intent: done === paymentIds.length ? Intent.SUCCESS : Intent.WARNING,
      message: intl.formatMessage({ id: 'payments.reset.done' }, { done, refused: paymentIds.length - done }),
    });
  };
  return (
    <section className="portal-page portal-reseller-payments" data-testid="reseller-payments">
      <H3>
        <FormattedMessage id="payments.history.title" />
      </H3>
      {admin && <ManualPaymentForm resellerId={id} />}
      <PaymentsTable resellerId={id} onReset={admin ? resetPayments : undefined} testId="reseller-payments-table" />
    </section>
  );
}
