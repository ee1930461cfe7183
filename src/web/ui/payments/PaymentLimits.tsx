/**
 * Payment limits and fees of a reseller: what applies (its own settings over the provider's defaults) and what its
 * payments already use today and this month. Someone above the reseller may change its settings; an empty field
 * takes the provider's default. The administrator's own row is the provider's defaults, with the provider-wide limits.
 */
import { Button, Callout, FormGroup, H4, HTMLSelect, HTMLTable, InputGroup, Intent } from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { apiErrorOf } from '@web/core/apiErrors';
import { useGetPaymentsParametersQuery, usePutPaymentsParametersResellersByResellerIdMutation } from '@web/core/paymentsApi';
import type { PutPaymentsParametersResellersByResellerIdApiArg } from '@web/core/paymentsApi.gen';
import { Loading } from '../Loading';
import { showToast } from '../toaster';
import { parseAmount } from '../amount/amount';
import './paymentsTable.css';

type Overrides = PutPaymentsParametersResellersByResellerIdApiArg['body'];
type NumberField = Exclude<keyof Overrides, 'cryptoEnabled'>;

const AMOUNT_FIELDS: NumberField[] = ['cardDailyLimit', 'cardMonthlyLimit', 'cryptoDailyLimit', 'cryptoMonthlyLimit', 'cryptoTotalLimit'];
const RATE_FIELDS: NumberField[] = ['cardFeeRate', 'cryptoFeeRate'];
const PROVIDER_FIELDS: NumberField[] = ['providerDailyLimit', 'providerMonthlyLimit'];

function LimitsForm({ resellerId, stored, provider }: { resellerId: number; stored: Overrides; provider: boolean }) {
  const intl = useIntl();
  const fields = [...AMOUNT_FIELDS, ...RATE_FIELDS, ...(provider ? PROVIDER_FIELDS : [])];
  // Rates are edited as percents (3 for 0.03), amounts as amounts; empty is "the default".
  const shownValue = (f: NumberField) => {
    const v = stored[f];
    if (v === null || v === undefined) return '';
    return RATE_FIELDS.includes(f) ? String(Math.round(v * 10000) / 100) : String(v);
  };
  const [texts, setTexts] = useState<Record<string, string>>(() => Object.fromEntries(fields.map((f) => [f, shownValue(f)])));
  const [cryptoEnabled, setCryptoEnabled] = useState<string>(
    stored.cryptoEnabled === null || stored.cryptoEnabled === undefined ? '' : String(stored.cryptoEnabled),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [save, saving] = usePutPaymentsParametersResellersByResellerIdMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body: Overrides = {};
    const found: Record<string, string> = {};
    for (const f of fields) {
      const text = texts[f].trim();
      if (!text) {
        body[f] = provider ? undefined : null;
        continue;
      }
      const n = parseAmount(text, { locale: intl.locale });
      if (n === undefined || (RATE_FIELDS.includes(f) && n > 100)) found[f] = 'payments.limits.invalid';
      else body[f] = RATE_FIELDS.includes(f) ? Math.round(n * 100) / 10000 : n;
    }
    body.cryptoEnabled = cryptoEnabled === '' ? (provider ? undefined : null) : cryptoEnabled === 'true';
    setErrors(found);
    if (Object.keys(found).length) return;
    const result = await save({ resellerId, body });
    if (result.error) {
      const fieldsOf = apiErrorOf(result.error)?.fields ?? [];
      setErrors(Object.fromEntries(fieldsOf.map((e) => [e.field, e.messageId])));
      if (!fieldsOf.length) showToast({ intent: Intent.DANGER, message: intl.formatMessage({ id: 'app.error.generic' }) });
      return;
    }
    showToast({ intent: Intent.SUCCESS, message: intl.formatMessage({ id: 'form.saved' }) });
  };

  return (
    <form onSubmit={submit} noValidate className="portal-limits-form" data-testid="payment-limits-form">
      <div className="portal-limits-grid">
        {fields.map((f) => (
          <FormGroup
            key={f}
            label={intl.formatMessage({ id: `payments.limits.${f}` })}
            labelFor={`limits-${f}`}
            intent={errors[f] ? Intent.DANGER : Intent.NONE}
            helperText={errors[f] ? intl.formatMessage({ id: errors[f] }) : RATE_FIELDS.includes(f) ? '%' : undefined}
          >
            <InputGroup
              id={`limits-${f}`}
              data-testid={`limits-${f}`}
              inputMode="decimal"
              placeholder={intl.formatMessage({ id: 'payments.limits.default' })}
              value={texts[f]}
              onValueChange={(v) => setTexts((t) => ({ ...t, [f]: v }))}
            />
          </FormGroup>
        ))}
        <FormGroup label={intl.formatMessage({ id: 'payments.limits.cryptoEnabled' })} labelFor="limits-cryptoEnabled">
          <HTMLSelect
            id="limits-cryptoEnabled"
            data-testid="limits-cryptoEnabled"
            value={cryptoEnabled}
            onChange={(e) => setCryptoEnabled(e.currentTarget.value)}
            options={[
              ...(provider ? [] : [{ value: '', label: intl.formatMessage({ id: 'payments.limits.default' }) }]),
              { value: 'true', label: intl.formatMessage({ id: 'payments.limits.allowed' }) },
              { value: 'false', label: intl.formatMessage({ id: 'payments.limits.notAllowed' }) },
            ]}
          />
        </FormGroup>
      </div>
      <Button type="submit" intent={Intent.PRIMARY} loading={saving.isLoading} data-testid="payment-limits-save">
        <FormattedMessage id="form.save" />
      </Button>
    </form>
  );
}

export function PaymentLimits({ resellerId, editable, provider = false }: { resellerId?: number; editable: boolean; provider?: boolean }) {
  const intl = useIntl();
  const { data, isError } = useGetPaymentsParametersQuery(resellerId);
  const money = (v: number | undefined) => (v === undefined ? '' : intl.formatNumber(v, { style: 'currency', currency: 'USD' }));
  const rate = (v: number) => intl.formatNumber(v, { style: 'percent', maximumFractionDigits: 2 });
  if (isError)
    return (
      <Callout intent={Intent.DANGER}>
        <FormattedMessage id="payments.loadError" />
      </Callout>
    );
  if (!data) return <Loading />;
  const used = data.used ?? {};
  const rows: [string, string, string, string, string][] = [
    ['payments.method.CREDIT_CARD', money(data.creditCard.dailyLimit), money(used.cardToday), money(data.creditCard.monthlyLimit), money(used.cardMonth)],
    ['payments.method.BIT_PAY', money(data.crypto.dailyLimit), money(used.cryptoToday), money(data.crypto.monthlyLimit), money(used.cryptoMonth)],
  ];
  return (
    <div className="portal-payment-limits" data-testid="payment-limits">
      {/* Two rows, one per method, of labelled figures: not a list of records. */}
      <HTMLTable compact className="portal-panel-table">
        <thead>
          <tr>
            <th />
            <th className="portal-cell-number">
              <FormattedMessage id="payments.limits.daily" />
            </th>
            <th className="portal-cell-number">
              <FormattedMessage id="payments.limits.usedToday" />
            </th>
            <th className="portal-cell-number">
              <FormattedMessage id="payments.limits.monthly" />
            </th>
            <th className="portal-cell-number">
              <FormattedMessage id="payments.limits.usedMonth" />
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, ...cells]) => (
            <tr key={label}>
              <th scope="row">
                <FormattedMessage id={label} />
              </th>
              {cells.map((c, i) => (
                <td key={i} className="portal-cell-number">
                  {c}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <p data-testid="payment-limits-summary">
        <FormattedMessage
          id="payments.limits.summary"
          values={{
            cardFee: rate(data.creditCard.feeRate),
            cryptoFee: rate(data.crypto.feeRate),
            cryptoTotal: money(data.crypto.totalLimit),
            outstanding: money(used.cryptoOutstanding ?? 0),
            enabled: data.crypto.enabled ? 'yes' : 'no',
          }}
        />
      </p>
      {editable && data.overrides && (
        <>
          <H4>
            <FormattedMessage id={provider ? 'payments.limits.editDefaults' : 'payments.limits.edit'} />
          </H4>
          <LimitsForm key={JSON.stringify(data.overrides)} resellerId={data.resellerId} stored={data.overrides} provider={provider} />
        </>
      )}
    </div>
  );
}
