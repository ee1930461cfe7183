/**
 * Adding funds: by card (a saved one or a new one, credited at once), by crypto (a BitPay invoice, credited when the
 * network confirms it, followed here live) or by bank wire (a reference and the transfer's proof, credited once the
 * provider has checked it). The fee is previewed as the amount is typed. Each opening of the dialog is one payment:
 * sending it twice (a double click, a retry after a lost answer) credits once.
 */
import {
  Button,
  Callout,
  Checkbox,
  Classes,
  Dialog,
  DialogBody,
  DialogFooter,
  FileInput,
  FormGroup,
  HTMLSelect,
  InputGroup,
  Intent,
  Tab,
  Tabs,
} from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { referenceMessage } from '@shared/payments';
import { apiErrorOf, type QueryError } from '@web/core/apiErrors';
import {
  useGetPaymentsBitPayByIdQuery,
  useGetPaymentsMethodsCreditCardsQuery,
  useGetPaymentsMethodsQuery,
  usePostPaymentsSubmitCalculateFeeQuery,
  usePostPaymentsSubmitMutation,
  useSubmitBankWireMutation,
  PROOF_ACCEPT,
  PROOF_MAX_BYTES,
  type Payment,
} from '@web/core/paymentsApi';
import { AmountInput } from '@web/ui/amount/AmountInput';
import { parseAmount, paymentRangeError } from '@web/ui/amount/amount';
import { showToast } from '@web/ui/toaster';
import { CardFields, cardErrors, EMPTY_CARD, type NewCard } from './CardFields';

type TopUpMethod = 'CREDIT_CARD' | 'BIT_PAY' | 'BANK_WIRE';
const TOP_UP_METHODS: readonly TopUpMethod[] = ['CREDIT_CARD', 'BIT_PAY', 'BANK_WIRE'];

/** The message id an answer's error carries: its first field's, else the general payment failure. */
export function paymentErrorId(error: QueryError): string {
  const api = apiErrorOf(error);
  return api?.fields?.[0]?.messageId ?? 'payments.error.general';
}

/** The amount's message id, if it is not one a payer may pay. */
function amountError(text: string, locale: string): string | undefined {
  if (!text.trim()) return 'payments.amount.required';
  const amount = parseAmount(text, { locale });
  if (amount === undefined) return 'payments.amount.invalid';
  if (amount <= 0) return 'payments.amount.positive';
  return paymentRangeError(amount);
}

function FeePreview({ method, amount }: { method: TopUpMethod; amount: number | undefined }) {
  const intl = useIntl();
  const { data, currentData } = usePostPaymentsSubmitCalculateFeeQuery({ method, amount: amount ?? 0 }, { skip: amount === undefined });
  if (!data || amount === undefined) return null;
  const money = (value: number) => intl.formatNumber(value, { style: 'currency', currency: data.currency });
  // The last amount's figures hold the line's place, hidden, until the amount typed now has its own.
  const stale = data !== currentData;
  return (
    <p className={stale ? `${Classes.TEXT_MUTED} ${Classes.SKELETON}` : Classes.TEXT_MUTED} data-testid="top-up-fee" aria-busy={stale}>
      <FormattedMessage id="payments.topUp.fee" values={{ fee: money(data.fee), paid: money(data.paidAmount), credited: money(data.creditedAmount) }} />
    </p>
  );
}

/** A crypto payment's invoice, followed until the network confirms it (or it fails). */
function InvoiceStatus({ payment }: { payment: Payment }) {
  const { data } = useGetPaymentsBitPayByIdQuery(payment.id, { pollingInterval: 2000 });
  const status = data?.payment.status ?? payment.status;
  const done = status === 'confirmed';
  const failed = status === 'failed' || status === 'declined';
  return (
    <Callout intent={done ? Intent.SUCCESS : failed ? Intent.DANGER : Intent.PRIMARY} data-testid="top-up-invoice" data-status={status}>
      <p>
        <FormattedMessage id={done ? 'payments.crypto.confirmed' : failed ? 'payments.crypto.failed' : 'payments.crypto.waiting'} />
      </p>
      {!done && !failed && (data?.invoiceUrl ?? payment.invoiceUrl) && (
        <p>
          <FormattedMessage id="payments.crypto.invoice" values={{ id: data?.invoiceId ?? payment.processorRef ?? payment.id }} />
        </p>
      )}
    </Callout>
  );
}

export function TopUpDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const intl = useIntl();
  const { data: methods } = useGetPaymentsMethodsQuery(undefined, { skip: !isOpen });
  const offered = TOP_UP_METHODS.filter((m) => methods?.some((x) => x.code === m));
  const { data: cards = [] } = useGetPaymentsMethodsCreditCardsQuery(undefined, { skip: !isOpen });
  const [method, setMethod] = useState<TopUpMethod>('CREDIT_CARD');
  const [amountText, setAmountText] = useState('');
  const [cardId, setCardId] = useState<number | 'new'>();
  const [card, setCard] = useState<NewCard>(EMPTY_CARD);
  const [saveCard, setSaveCard] = useState(true);
  const [reference, setReference] = useState('');
  const [file, setFile] = useState<File>();
  const [sent, setSent] = useState(false);
  const [failure, setFailure] = useState<string>();
  const [pending, setPending] = useState<Payment>();
  const [wireDone, setWireDone] = useState<Payment>();
  // One key per opening: a second send of the same payment is answered with the first, not credited again.
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [submit, submitting] = usePostPaymentsSubmitMutation();
  const [submitWire, submittingWire] = useSubmitBankWireMutation();

  const chosenCard = cardId ?? (cards[0]?.id as number | undefined) ?? 'new';
  const amount = parseAmount(amountText, { locale: intl.locale });
  const errors = {
    amount: amountError(amountText, intl.locale),
    card: method === 'CREDIT_CARD' && chosenCard === 'new' ? cardErrors(card) : {},
    reference: method === 'BANK_WIRE' ? referenceMessage(reference) : undefined,
    file: method === 'BANK_WIRE' ? (!file ? 'validation.file.required' : file.size >= PROOF_MAX_BYTES ? 'validation.file.tooLarge' : undefined) : undefined,
  };
  const valid = !errors.amount && Object.keys(errors.card).length === 0 && !errors.reference && !errors.file;
  const shown = (id: string | undefined) => (sent && id ? intl.formatMessage({ id }) : undefined);

  const reset = () => {
    setAmountText('');
    setCard(EMPTY_CARD);
    setReference('');
    setFile(undefined);
    setSent(false);
    setFailure(undefined);
    setPending(undefined);
    setWireDone(undefined);
    setKey(crypto.randomUUID());
  };
  const close = () => {
    reset();
    onClose();
  };

  const send = async (event: FormEvent) => {
    event.preventDefault();
    setSent(true);
    setFailure(undefined);
    if (!valid || amount === undefined) return;
    if (method === 'BANK_WIRE') {
      const result = await submitWire({ amount: String(amount), reference: reference.trim(), file: file!, idempotencyKey: key });
      if (result.error) return setFailure(paymentErrorId(result.error));
      return setWireDone(result.data);
    }
    const result = await submit({
      method,
      amount,
      idempotencyKey: key,
      ...(method === 'CREDIT_CARD' && chosenCard !== 'new' ? { cardId: chosenCard } : {}),
      ...(method === 'CREDIT_CARD' && chosenCard === 'new' ? { card: { ...card, cvv: card.cvv || undefined }, saveCard } : {}),
    });
    if (result.error) {
      // A declined card is recorded; the next try is a new payment.
      setKey(crypto.randomUUID());
      return setFailure(paymentErrorId(result.error));
    }
    if (method === 'BIT_PAY') return setPending(result.data);
    showToast({
      intent: Intent.SUCCESS,
      message: intl.formatMessage(
        { id: 'payments.topUp.credited' },
        { amount: intl.formatNumber(result.data.creditedAmount, { style: 'currency', currency: result.data.currency }) },
      ),
    });
    close();
  };

  const finished = pending || wireDone;
  return (
    <Dialog isOpen={isOpen} onClose={close} title={intl.formatMessage({ id: 'payments.topUp.title' })} className="portal-top-up">
      <form onSubmit={send} noValidate data-testid="top-up-dialog">
        <DialogBody>
          {finished ? (
            pending ? (
              <InvoiceStatus payment={pending} />
            ) : (
              <Callout intent={Intent.SUCCESS} data-testid="top-up-wire-recorded">
                <FormattedMessage id="payments.wire.recorded" />
              </Callout>
            )
          ) : (
            <>
              <Tabs id="top-up-method" selectedTabId={method} onChange={(id) => (setMethod(id as TopUpMethod), setFailure(undefined))}>
                {offered.map((m) => (
                  <Tab key={m} id={m} title={intl.formatMessage({ id: `payments.method.${m}` })} data-testid={`top-up-method-${m}`} />
                ))}
              </Tabs>
              <p className={Classes.TEXT_MUTED}>
                <FormattedMessage id={`payments.credited.${method}`} />
              </p>
              <FormGroup
                label={intl.formatMessage({ id: 'payments.amount' })}
                labelFor="top-up-amount"
                intent={shown(errors.amount) ? Intent.DANGER : Intent.NONE}
                helperText={shown(errors.amount)}
              >
                <AmountInput
                  id="top-up-amount"
                  data-testid="top-up-amount"
                  value={amountText}
                  onValueChange={setAmountText}
                  leftIcon="dollar"
                  intent={shown(errors.amount) ? Intent.DANGER : Intent.NONE}
                />
              </FormGroup>
              <FeePreview method={method} amount={errors.amount ? undefined : amount} />
              {method === 'CREDIT_CARD' && (
                <>
                  <FormGroup label={intl.formatMessage({ id: 'payments.card.choose' })} labelFor="top-up-card">
                    <HTMLSelect
                      id="top-up-card"
                      data-testid="top-up-card"
                      value={String(chosenCard)}
                      onChange={(e) => setCardId(e.currentTarget.value === 'new' ? 'new' : Number(e.currentTarget.value))}
                      options={[
                        ...cards.map((c) => ({
                          value: String(c.id),
                          label: `${c.brand} •••• ${c.last4}  ${String(c.expiryMonth).padStart(2, '0')}/${c.expiryYear}`,
                        })),
                        { value: 'new', label: intl.formatMessage({ id: 'payments.card.new' }) },
                      ]}
                    />
                  </FormGroup>
                  {chosenCard === 'new' && (
                    <>
                      <CardFields card={card} onChange={setCard} errors={sent ? errors.card : {}} idPrefix="top-up-card" />
                      <Checkbox checked={saveCard} onChange={() => setSaveCard((s) => !s)} label={intl.formatMessage({ id: 'payments.card.save' })} />
                    </>
                  )}
                </>
              )}
              {method === 'BANK_WIRE' && (
                <>
                  <FormGroup
                    label={intl.formatMessage({ id: 'payments.wire.reference' })}
                    labelFor="top-up-reference"
                    intent={shown(errors.reference) ? Intent.DANGER : Intent.NONE}
                    helperText={shown(errors.reference) ?? intl.formatMessage({ id: 'payments.wire.referenceHint' })}
                  >
                    <InputGroup id="top-up-reference" data-testid="top-up-reference" value={reference} maxLength={32} onValueChange={setReference} />
                  </FormGroup>
                  <FormGroup
                    label={intl.formatMessage({ id: 'payments.wire.proof' })}
                    labelFor="top-up-proof"
                    intent={shown(errors.file) ? Intent.DANGER : Intent.NONE}
                    helperText={shown(errors.file)}
                  >
                    <FileInput
                      fill
                      text={file?.name ?? intl.formatMessage({ id: 'payments.wire.chooseProof' })}
                      buttonText={intl.formatMessage({ id: 'payments.wire.browse' })}
                      inputProps={{
                        id: 'top-up-proof',
                        accept: PROOF_ACCEPT,
                        'aria-label': intl.formatMessage({ id: 'payments.wire.proof' }),
                        ...({ 'data-testid': 'top-up-proof' } as object),
                      }}
                      onInputChange={(e) => setFile((e.currentTarget as HTMLInputElement).files?.[0])}
                    />
                  </FormGroup>
                </>
              )}
              {failure && (
                <Callout intent={Intent.DANGER} data-testid="top-up-failure">
                  {intl.formatMessage({ id: failure })}
                </Callout>
              )}
            </>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            finished ? (
              <Button onClick={close} data-testid="top-up-close">
                <FormattedMessage id="payments.topUp.close" />
              </Button>
            ) : (
              <>
                <Button onClick={close}>
                  <FormattedMessage id="form.cancel" />
                </Button>
                <Button type="submit" intent={Intent.PRIMARY} loading={submitting.isLoading || submittingWire.isLoading} data-testid="top-up-submit">
                  <FormattedMessage id="payments.topUp.pay" />
                </Button>
              </>
            )
          }
        />
      </form>
    </Dialog>
  );
}
