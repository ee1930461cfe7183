/**
 * A reseller's standing under its form: balance and credit as the ledger has them, and the terms only those above
 * the reseller set (credit limit, debt in review, the start of its usage period). The server refuses the terms to
 * the reseller itself and a limit below the credit in use plus what open orders hold; the panel shows that floor under
 * the limit and the server's refusal in its place.
 */
import { Alert, Button, ControlGroup, FormGroup, H3, HTMLTable, Intent } from '@blueprintjs/core';
import { HistoryIcon, IdNumberIcon, MapMarkerIcon, PeopleIcon } from '@blueprintjs/icons';
import { lazy, Suspense, useCallback, useMemo, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import { apiErrorOf, type QueryError } from '@web/core/apiErrors';
import { useCaller } from '@web/core/useCaller';
import { AmountInput } from '@web/ui/amount/AmountInput';
import { formatAmount, parseAmount } from '@web/ui/amount/amount';
import { Loading } from '@web/ui/Loading';
import { showToast } from '@web/ui/toaster';
import {
  usePostGraphsBalanceHistoryQuery,
  useGetResellerInfoCreditLimitsByIdQuery,
  usePostResellerInfoByIdDisputedAmountMutation,
  usePostResellerInfoByIdResetUsageDateMutation,
  usePostResellerInfoCreditLimitsByIdMutation,
  type ResellerStanding,
} from './resellersApi';

// ECharts loads with the first chart.
const LineChart = lazy(() => import('@web/ui/charts/LineChart'));

/** Days the balance history shows. */
const HISTORY_DAYS = 90;

/** The reseller's closing balance of each of the last days, from the ledger. */
function BalanceHistory({ id, currency }: { id: number; currency: string }) {
  const intl = useIntl();
  const [from] = useState(() => new Date(Date.now() - (HISTORY_DAYS - 1) * 86_400_000).toISOString().slice(0, 10));
  const { data } = usePostGraphsBalanceHistoryQuery({ resellerId: id, from }, { refetchOnMountOrArgChange: true });
  const points = useMemo(() => (data?.points ?? []).map((p) => ({ date: p.date, value: p.balance })), [data]);
  const formatValue = useCallback((value: number) => intl.formatNumber(value, { style: 'currency', currency, notation: 'compact' }), [intl, currency]);
  const formatDate = useCallback((date: string) => intl.formatDate(`${date}T00:00:00Z`, { day: 'numeric', month: 'short', timeZone: 'UTC' }), [intl]);
  const label = intl.formatMessage({ id: 'resellers.history.title' }, { days: HISTORY_DAYS });
  return (
    <figure className="portal-reseller-history">
      <figcaption>{label}</figcaption>
      {data ? (
        <Suspense fallback={<Loading />}>
          <LineChart points={points} label={label} formatValue={formatValue} formatDate={formatDate} testId="reseller-balance-history" />
        </Suspense>
      ) : (
        <Loading />
      )}
    </figure>
  );
}

function AmountForm(props: {
  id: string;
  label: string;
  value: number;
  invalidMessage: string;
  hint?: string;
  onSave: (amount: number) => Promise<QueryError | undefined>;
}) {
  const intl = useIntl();
  const [text, setText] = useState(() => formatAmount(props.value, intl.locale));
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const amount = parseAmount(text, { locale: intl.locale });
    if (amount === undefined) return setError(intl.formatMessage({ id: props.invalidMessage }));
    setSaving(true);
    const failed = await props.onSave(amount);
    setSaving(false);
    const messageId = failed ? (apiErrorOf(failed)?.fields?.[0]?.messageId ?? 'app.error.generic') : undefined;
    setError(messageId && intl.formatMessage({ id: messageId }));
    if (!failed) showToast({ intent: Intent.SUCCESS, message: intl.formatMessage({ id: 'form.saved' }) });
  };
  return (
    <form onSubmit={submit} data-testid={`${props.id}-form`}>
      <FormGroup label={props.label} labelFor={props.id} intent={error ? Intent.DANGER : Intent.NONE} helperText={error ?? props.hint}>
        <ControlGroup>
          <AmountInput id={props.id} value={text} onValueChange={setText} intent={error ? Intent.DANGER : Intent.NONE} />
          <Button type="submit" loading={saving} data-testid={`${props.id}-save`}>
            <FormattedMessage id="form.save" />
          </Button>
        </ControlGroup>
      </FormGroup>
    </form>
  );
}

function Figures({ standing }: { standing: ResellerStanding }) {
  const intl = useIntl();
  const money = (value: number | undefined) => intl.formatNumber(value ?? 0, { style: 'currency', currency: standing.currency });
  const rows: [string, string][] = [
    ['entity.reseller.field.balance', money(standing.balance)],
    ['entity.reseller.field.availableCredit', money(standing.availableCredit)],
    ['entity.reseller.field.creditLimit', money(standing.creditLimit)],
    ['resellers.standing.creditUsed', money(standing.creditUsed)],
    ['resellers.standing.held', money(standing.held)],
    ['entity.reseller.field.disputedAmount', money(standing.disputedAmount)],
    ['entity.reseller.field.deposit', money(standing.deposit)],
    ['entity.reseller.field.totalCredit', money(standing.totalCredit)],
    ['entity.reseller.field.subscriberCount', intl.formatNumber(standing.subscriberCount ?? 0)],
    [
      'entity.reseller.field.usageResetAt',
      standing.usageResetAt
        ? intl.formatDate(standing.usageResetAt, { dateStyle: 'medium', timeStyle: 'short' })
        : intl.formatMessage({ id: 'resellers.standing.never' }),
    ],
  ];
  return (
    // Labelled figures of one reseller, not a list of records.
    <HTMLTable compact className="portal-reseller-figures" data-testid="reseller-figures">
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label}>
            <th scope="row">
              <FormattedMessage id={label} />
            </th>
            <td data-testid={`figure-${label.split('.').pop()}`}>{value}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}

export function ResellerStandingPanel({ id }: { id: number }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const caller = useCaller();
  const { data: standing, isError } = useGetResellerInfoCreditLimitsByIdQuery(id);
  const [setLimit] = usePostResellerInfoCreditLimitsByIdMutation();
  const [setDisputed] = usePostResellerInfoByIdDisputedAmountMutation();
  const [resetUsage, resetting] = usePostResellerInfoByIdResetUsageDateMutation();
  const [confirmReset, setConfirmReset] = useState(false);
  // Terms come from above: the administrator, or a reseller the row sits under (never the reseller itself).
  const setsTerms = Boolean(caller && (caller.isAdmin || (caller.accountId === null && caller.resellerId !== id)));

  if (isError) return null;
  return (
    <section className="portal-page portal-reseller-standing" data-testid="reseller-standing">
      <header className="portal-page-header">
        <H3>
          <FormattedMessage id="resellers.standing.title" />
        </H3>
        <div className="portal-page-actions">
          {/* The reseller's own lists: its sub-resellers, contacts and addresses, each searched by this reseller. */}
          <Button icon={<PeopleIcon />} data-testid="reseller-children" onClick={() => navigate(`/resellers?searchBy=parentId&searchKey=${id}`)}>
            <FormattedMessage id="resellers.subResellers" />
          </Button>
          <Button icon={<IdNumberIcon />} data-testid="reseller-contacts" onClick={() => navigate(`/contacts?searchBy=resellerId&searchKey=${id}`)}>
            <FormattedMessage id="entity.contact.title" />
          </Button>
          <Button icon={<MapMarkerIcon />} data-testid="reseller-addresses" onClick={() => navigate(`/addresses?searchBy=resellerId&searchKey=${id}`)}>
            <FormattedMessage id="entity.address.title" />
          </Button>
        </div>
      </header>
      {!standing ? (
        <Loading />
      ) : (
        <div className="portal-reseller-standing-body">
          <Figures standing={standing} />
          <BalanceHistory id={id} currency={standing.currency} />
          {setsTerms && (
            <div className="portal-reseller-terms" data-testid="reseller-terms">
              <AmountForm
                key={`limit-${standing.creditLimit}`}
                id="reseller-credit-limit"
                label={intl.formatMessage({ id: 'entity.reseller.field.creditLimit' })}
                value={standing.creditLimit}
                invalidMessage="entity.reseller.creditLimit.invalid"
                hint={intl.formatMessage(
                  { id: 'resellers.standing.minimumCreditLimit' },
                  { amount: intl.formatNumber(standing.minimumCreditLimit, { style: 'currency', currency: standing.currency }) },
                )}
                onSave={async (creditLimit) => (await setLimit({ id, body: { creditLimit } })).error}
              />
              <AmountForm
                key={`disputed-${standing.disputedAmount}`}
                id="reseller-disputed-amount"
                label={intl.formatMessage({ id: 'entity.reseller.field.disputedAmount' })}
                value={standing.disputedAmount}
                invalidMessage="entity.reseller.disputedAmount.invalid"
                onSave={async (disputedAmount) => (await setDisputed({ id, body: { disputedAmount } })).error}
              />
              <Button icon={<HistoryIcon />} loading={resetting.isLoading} onClick={() => setConfirmReset(true)} data-testid="reseller-reset-usage">
                <FormattedMessage id="resellers.resetUsage" />
              </Button>
            </div>
          )}
        </div>
      )}
      <Alert
        isOpen={confirmReset}
        intent={Intent.WARNING}
        icon={<HistoryIcon />}
        confirmButtonText={intl.formatMessage({ id: 'resellers.resetUsage' })}
        cancelButtonText={intl.formatMessage({ id: 'form.cancel' })}
        onCancel={() => setConfirmReset(false)}
        onConfirm={async () => {
          setConfirmReset(false);
          const result = await resetUsage(id);
          showToast(
            result.error
              ? { intent: Intent.DANGER, message: intl.formatMessage({ id: 'app.error.generic' }) }
              : { intent: Intent.SUCCESS, message: intl.formatMessage({ id: 'resellers.resetUsage.done' }) },
          );
        }}
      >
        <FormattedMessage id="resellers.resetUsage.confirm" />
      </Alert>
    </section>
  );
}
