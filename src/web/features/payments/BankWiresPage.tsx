/**
 * The administrator's queue of bank wires awaiting confirmation, oldest first: each with its reseller, amount,
 * reference and proof to download; confirming credits the reseller once, rejecting records the refusal.
 */
import { Alert, Button, ButtonGroup, Card, H2, HTMLTable, Intent } from '@blueprintjs/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import {
  useDownloadWireProofMutation,
  useGetPaymentsBankWiresPendingQuery,
  usePostPaymentsBankWiresByIdConfirmMutation,
  usePostPaymentsBankWiresByIdRejectMutation,
  type Payment,
} from '@web/core/paymentsApi';
import { Loading } from '@web/ui/Loading';
import { Pager } from '@web/ui/Pager';
import { showToast } from '@web/ui/toaster';
import { paymentErrorId } from './TopUpDialog';
import './payments.css';

const PAGE_SIZE = 20;

export default function BankWiresPage() {
  const intl = useIntl();
  const [page, setPage] = useState(1);
  const { data } = useGetPaymentsBankWiresPendingQuery({ page: page - 1, size: PAGE_SIZE });
  const [confirm] = usePostPaymentsBankWiresByIdConfirmMutation();
  const [reject] = usePostPaymentsBankWiresByIdRejectMutation();
  const [download] = useDownloadWireProofMutation();
  const [deciding, setDeciding] = useState<{ wire: Payment; action: 'confirm' | 'reject' }>();
  const money = (p: Payment) => intl.formatNumber(p.amount, { style: 'currency', currency: p.currency });

  const decide = async () => {
    if (!deciding) return;
    const { wire, action } = deciding;
    setDeciding(undefined);
    const result = action === 'confirm' ? await confirm(wire.id) : await reject(wire.id);
    showToast(
      result.error
        ? { intent: Intent.DANGER, message: intl.formatMessage({ id: paymentErrorId(result.error) }) }
        : {
            intent: Intent.SUCCESS,
            message: intl.formatMessage({ id: `payments.wires.${action}ed` }, { amount: money(wire), reseller: wire.resellerName ?? wire.resellerId }),
          },
    );
  };

  return (
    <div className="portal-page portal-bank-wires" data-testid="bank-wires-page">
      <header className="portal-page-header">
        <H2>
          <FormattedMessage id="payments.wires.title" />
        </H2>
      </header>
      <Card>
        <p>
          <FormattedMessage id="payments.wires.intro" />
        </p>
        {!data ? (
          <Loading />
        ) : data.items.length === 0 ? (
          <p data-testid="bank-wires-empty">
            <FormattedMessage id="payments.wires.empty" />
          </p>
        ) : (
          <>
            {/* The administrator's queue, paged on the server, with a proof, a confirm and a reject per row: a work list, not a list to search. */}
            <HTMLTable compact striped className="portal-panel-table" data-testid="bank-wires-table">
              <thead>
                <tr>
                  <th>
                    <FormattedMessage id="payments.column.date" />
                  </th>
                  <th>
                    <FormattedMessage id="payments.column.reseller" />
                  </th>
                  <th className="portal-cell-number">
                    <FormattedMessage id="payments.column.paid" />
                  </th>
                  <th>
                    <FormattedMessage id="payments.wire.reference" />
                  </th>
                  <th>
                    <FormattedMessage id="payments.column.user" />
                  </th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {data.items.map((w) => (
                  <tr key={w.id} data-testid={`bank-wire-${w.id}`}>
                    <td>{intl.formatDate(w.date, { dateStyle: 'medium', timeStyle: 'short' })}</td>
                    <td>{w.resellerName ?? w.resellerId}</td>
                    <td className="portal-cell-number">{money(w)}</td>
                    <td>{w.reference}</td>
                    <td>{w.userName}</td>
                    <td>
                      <ButtonGroup>
                        <Button icon="document" onClick={() => download(w.id)} disabled={!w.hasProof} data-testid={`bank-wire-proof-${w.id}`}>
                          <FormattedMessage id="payments.wires.proof" />
                        </Button>
                        <Button
                          icon="tick"
                          intent={Intent.SUCCESS}
                          onClick={() => setDeciding({ wire: w, action: 'confirm' })}
                          data-testid={`bank-wire-confirm-${w.id}`}
                        >
                          <FormattedMessage id="payments.wires.confirm" />
                        </Button>
                        <Button
                          icon="cross"
                          intent={Intent.DANGER}
                          onClick={() => setDeciding({ wire: w, action: 'reject' })}
                          data-testid={`bank-wire-reject-${w.id}`}
                        >
                          <FormattedMessage id="payments.wires.reject" />
                        </Button>
                      </ButtonGroup>
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
            {data.totalPageCount > 1 && <Pager page={page} pages={data.totalPageCount} total={data.totalItemsCount} onPage={setPage} />}
          </>
        )}
      </Card>
      <Alert
        isOpen={deciding !== undefined}
        intent={deciding?.action === 'confirm' ? Intent.SUCCESS : Intent.DANGER}
        confirmButtonText={intl.formatMessage({ id: deciding?.action === 'reject' ? 'payments.wires.reject' : 'payments.wires.confirm' })}
        cancelButtonText={intl.formatMessage({ id: 'form.cancel' })}
        onCancel={() => setDeciding(undefined)}
        onConfirm={decide}
      >
        {deciding && (
          <FormattedMessage
            id={`payments.wires.${deciding.action}Question`}
            values={{ amount: money(deciding.wire), reseller: deciding.wire.resellerName ?? deciding.wire.resellerId, reference: deciding.wire.reference }}
          />
        )}
      </Alert>
    </div>
  );
}
