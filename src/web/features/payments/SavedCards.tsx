/** The caller's saved cards: the processor's token stands behind each, the portal keeps only brand, last four and expiry. */
import { Alert, Button, Card, Callout, H4, Intent } from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import {
  useDeletePaymentsMethodsCreditCardsByIdMutation,
  useGetPaymentsMethodsCreditCardsQuery,
  usePostPaymentsMethodsCreditCardsMutation,
} from '@web/core/paymentsApi';
import { Loading } from '@web/ui/Loading';
import { showToast } from '@web/ui/toaster';
import { CardFields, cardErrors, EMPTY_CARD, type NewCard } from './CardFields';
import { paymentErrorId } from './TopUpDialog';

function AddCardForm({ onDone }: { onDone: () => void }) {
  const intl = useIntl();
  const [card, setCard] = useState<NewCard>(EMPTY_CARD);
  const [sent, setSent] = useState(false);
  const [failure, setFailure] = useState<string>();
  const [add, adding] = usePostPaymentsMethodsCreditCardsMutation();
  const errors = cardErrors(card);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSent(true);
    if (Object.keys(errors).length) return;
    const result = await add({ ...card, cvv: card.cvv || undefined });
    if (result.error) return setFailure(paymentErrorId(result.error));
    showToast({ intent: Intent.SUCCESS, message: intl.formatMessage({ id: 'payments.card.added' }) });
    onDone();
  };
  return (
    <form onSubmit={submit} noValidate className="portal-add-card" data-testid="add-card-form">
      <CardFields card={card} onChange={setCard} errors={sent ? errors : {}} idPrefix="add-card" />
      {failure && <Callout intent={Intent.DANGER}>{intl.formatMessage({ id: failure })}</Callout>}
      <div className="portal-form-actions">
        <Button onClick={onDone}>
          <FormattedMessage id="form.cancel" />
        </Button>
        <Button type="submit" intent={Intent.PRIMARY} loading={adding.isLoading} data-testid="add-card-save">
          <FormattedMessage id="payments.card.add" />
        </Button>
      </div>
    </form>
  );
}

export function SavedCards() {
  const intl = useIntl();
  const { data: cards } = useGetPaymentsMethodsCreditCardsQuery();
  const [remove] = useDeletePaymentsMethodsCreditCardsByIdMutation();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<number>();
  return (
    <Card className="portal-saved-cards" data-testid="saved-cards">
      <header className="portal-page-header">
        <H4>
          <FormattedMessage id="payments.cards.title" />
        </H4>
        {!adding && (
          <Button icon="plus" onClick={() => setAdding(true)} data-testid="add-card">
            <FormattedMessage id="payments.card.add" />
          </Button>
        )}
      </header>
      {!cards ? (
        <Loading />
      ) : cards.length === 0 ? (
        <p data-testid="saved-cards-empty">
          <FormattedMessage id="payments.cards.empty" />
        </p>
      ) : (
        <ul className="portal-card-list">
          {cards.map((c) => (
            <li key={c.id} data-testid={`saved-card-${c.last4}`}>
              <span className="portal-card-brand">{c.brand}</span>
              <span dir="ltr">•••• {c.last4}</span>
              <span>{c.holderName}</span>
              <span dir="ltr">
                {String(c.expiryMonth).padStart(2, '0')}/{c.expiryYear}
              </span>
              <Button
                variant="minimal"
                icon="trash"
                intent={Intent.DANGER}
                aria-label={intl.formatMessage({ id: 'payments.card.remove' })}
                onClick={() => setRemoving(c.id)}
              />
            </li>
          ))}
        </ul>
      )}
      {adding && <AddCardForm onDone={() => setAdding(false)} />}
      <Alert
        isOpen={removing !== undefined}
        intent={Intent.DANGER}
        icon="trash"
        confirmButtonText={intl.formatMessage({ id: 'payments.card.remove' })}
        cancelButtonText={intl.formatMessage({ id: 'form.cancel' })}
        onCancel={() => setRemoving(undefined)}
        onConfirm={async () => {
          if (removing !== undefined) await remove(removing);
          setRemoving(undefined);
        }}
      >
        <FormattedMessage id="payments.card.removeConfirm" />
      </Alert>
    </Card>
  );
}
