/**
 * A parent reseller's margin preview: choose a sub-reseller and one of the parent's plans, and see per network
 * what the parent pays, what the sub-reseller would pay and the margin, before assigning anything. Negative
 * margins (selling below cost) are highlighted.
 */
import { Button, Callout, FormGroup, H3, HTMLSelect, Intent } from '@blueprintjs/core';
import { ChartIcon, TickIcon } from '@blueprintjs/icons';
import type { CellClassParams, ColDef, ValueFormatterParams } from 'ag-grid-community';
import { useId, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { countryNames } from '@shared/countries';
import { formatRate } from '@shared/pricing';
import { hasPrivilege } from '@shared/privileges';
import type { MarginPreview, MarginRow, ResellerPricingSummary } from '@shared/resellerPricing';
import { useGetUserUiPrivilegesQuery } from '@web/core/authApi';
import { showToast } from '@web/ui/toaster';
import { usePutResellerPricingPlanMutation, usePostResellerPricingMarginPreviewMutation } from './resellerPricingApi';
import { PricesGrid } from './PricesGrid';

type Compared = 'DataRate' | 'MoCallRate' | 'MoSmsRate';
const COMPARED: Compared[] = ['DataRate', 'MoCallRate', 'MoSmsRate'];
const lower = (c: Compared) => `${c[0].toLowerCase()}${c.slice(1)}` as 'dataRate' | 'moCallRate' | 'moSmsRate';

export function MarginPreviewPanel({ summary }: { summary: ResellerPricingSummary }) {
  const intl = useIntl();
  const resellerSelect = useId();
  const planSelect = useId();
  const [resellerId, setResellerId] = useState<number | undefined>(summary.subResellers[0]?.id);
  const [planId, setPlanId] = useState<number | undefined>(summary.assignablePlans[0]?.id);
  const [preview, state] = usePostResellerPricingMarginPreviewMutation();
  const [assign, assigning] = usePutResellerPricingPlanMutation();
  const { data: granted } = useGetUserUiPrivilegesQuery();
  const mayAssign = hasPrivilege(granted ?? [], 'Resellers');
  const [result, setResult] = useState<MarginPreview>();
  const names = useMemo(() => countryNames(intl.locale), [intl.locale]);

  const run = async () => {
    if (resellerId === undefined || planId === undefined) return;
    try {
      setResult(await preview({ resellerId, pricingPlanId: planId }).unwrap());
    } catch {
      setResult(undefined);
    }
  };

  const onAssign = async () => {
    if (!result) return;
    const reseller = summary.subResellers.find((r) => r.id === result.resellerId)?.name ?? '';
    const plan = summary.assignablePlans.find((p) => p.id === result.pricingPlanId)?.name ?? '';
    try {
      await assign({ resellerId: result.resellerId, pricingPlanId: result.pricingPlanId }).unwrap();
      showToast({ intent: Intent.SUCCESS, message: intl.formatMessage({ id: 'resellerPricing.margin.assigned' }, { reseller, plan }) });
    } catch {
      showToast({ intent: Intent.DANGER, message: intl.formatMessage({ id: 'resellerPricing.margin.assignError' }) });
    }
  };
  const current = summary.subResellers.find((r) => r.id === result?.resellerId)?.pricingPlanId;

  const columns = useMemo<ColDef<MarginRow>[]>(() => {
    const rate = (currency: 'callerCurrency' | 'proposedCurrency') => (p: ValueFormatterParams<MarginRow>) =>
      p.value === null || p.value === undefined
        ? intl.formatMessage({ id: 'format.none' })
        : formatRate(intl.locale, Number(p.value), p.data?.[currency] ?? undefined);
    const negative = { 'portal-margin-negative': (p: CellClassParams<MarginRow>) => typeof p.value === 'number' && p.value < 0 };
    const header = (id: string, rateId: string) => intl.formatMessage({ id }, { rate: intl.formatMessage({ id: rateId }) });
    return [
      {
        colId: 'country',
        field: 'country',
        width: 150,
        valueFormatter: (p) => `${p.value} · ${names[String(p.value)] ?? p.value}`,
        headerName: intl.formatMessage({ id: 'entity.networkPrice.field.country' }),
      },
      { colId: 'network', field: 'network', flex: 1, minWidth: 160, headerName: intl.formatMessage({ id: 'entity.networkPrice.field.network' }) },
      ...COMPARED.flatMap((c): ColDef<MarginRow>[] => {
        const rateId = `entity.networkPrice.field.${lower(c)}`;
        return [
          {
            colId: `caller${c}`,
            field: `caller${c}`,
            width: 130,
            type: 'rightAligned',
            headerName: header('resellerPricing.margin.paid', rateId),
            valueFormatter: rate('callerCurrency'),
          },
          {
            colId: `proposed${c}`,
            field: `proposed${c}`,
            width: 130,
            type: 'rightAligned',
            headerName: header('resellerPricing.margin.proposed', rateId),
            valueFormatter: rate('proposedCurrency'),
          },
          {
            colId: `${lower(c)}Margin`,
            field: `${lower(c)}Margin`,
            width: 130,
            type: 'rightAligned',
            headerName: header('resellerPricing.margin.amount', rateId),
            valueFormatter: rate('callerCurrency'),
            cellClassRules: negative,
          },
          {
            colId: `${lower(c)}MarginPercent`,
            field: `${lower(c)}MarginPercent`,
            width: 110,
            type: 'rightAligned',
            headerName: header('resellerPricing.margin.percent', rateId),
            cellClassRules: negative,
            valueFormatter: (p) =>
              p.value === null || p.value === undefined
                ? intl.formatMessage({ id: 'format.none' })
                : intl.formatNumber(Number(p.value) / 100, { style: 'percent', maximumFractionDigits: 2 }),
          },
        ];
      }),
    ];
  }, [intl, names]);

  return (
    <section className="portal-my-pricing-section" data-testid="margin-preview">
      <H3>
        <FormattedMessage id="resellerPricing.margin.title" />
      </H3>
      <p className="portal-page-intro">
        <FormattedMessage id="resellerPricing.margin.intro" />
      </p>
      <div className="portal-my-pricing-choices">
        <FormGroup label={intl.formatMessage({ id: 'resellerPricing.margin.subReseller' })} labelFor={resellerSelect}>
          <HTMLSelect
            id={resellerSelect}
            data-testid="margin-reseller"
            value={resellerId ?? ''}
            onChange={(e) => {
              setResellerId(Number(e.currentTarget.value));
              setResult(undefined);
            }}
            options={summary.subResellers.map((r) => ({ value: r.id, label: r.name }))}
          />
        </FormGroup>
        <FormGroup label={intl.formatMessage({ id: 'resellerPricing.margin.plan' })} labelFor={planSelect}>
          <HTMLSelect
            id={planSelect}
            data-testid="margin-plan"
            value={planId ?? ''}
            onChange={(e) => {
              setPlanId(Number(e.currentTarget.value));
              setResult(undefined);
            }}
            options={summary.assignablePlans.map((p) => ({ value: p.id, label: `${p.name} (${p.currency})` }))}
          />
        </FormGroup>
        <Button
          intent={Intent.PRIMARY}
          icon={<ChartIcon />}
          data-testid="margin-run"
          loading={state.isLoading}
          onClick={run}
          disabled={resellerId === undefined || planId === undefined}
        >
          <FormattedMessage id="resellerPricing.margin.run" />
        </Button>
      </div>
      {state.isError && (
        <Callout intent={Intent.DANGER} role="alert">
          <FormattedMessage id="resellerPricing.margin.error" />
        </Callout>
      )}
      {result && (
        <>
          <Callout intent={result.negativeCount ? Intent.WARNING : Intent.SUCCESS} data-testid="margin-summary" className="portal-my-pricing-callout">
            {result.negativeCount
              ? intl.formatMessage({ id: 'resellerPricing.margin.negative' }, { count: result.negativeCount })
              : intl.formatMessage({ id: 'resellerPricing.margin.allPositive' })}
          </Callout>
          <PricesGrid rows={result.rows} columns={columns} rowId={(r) => r.plmn} testId="grid-margin" height={420} />
          {mayAssign && (
            <div className="portal-my-pricing-choices portal-my-pricing-assign">
              {current === result.pricingPlanId ? (
                <span data-testid="margin-current">
                  <FormattedMessage id="resellerPricing.margin.current" />
                </span>
              ) : (
                <Button icon={<TickIcon />} data-testid="margin-assign" loading={assigning.isLoading} onClick={onAssign}>
                  <FormattedMessage id="resellerPricing.margin.assign" />
                </Button>
              )}
            </div>
          )}
        </>
      )}
    </section>
  );
}
