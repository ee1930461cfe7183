/**
 * A subscriber's prepaid packages: what each gives and how much is used, with Assign (free), Purchase (debited
 * from the subscriber's reseller) and Expire. Any screen that shows a subscriber mounts it with the subscriber's id.
 */
import {
  Alert,
  Button,
  Callout,
  Checkbox,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  H4,
  HTMLSelect,
  HTMLTable,
  Intent,
  NonIdealState,
  Switch,
  Tag,
} from '@blueprintjs/core';
import { AddIcon, ShoppingCartIcon } from '@blueprintjs/icons';
import { useId, useState } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { PrepaidPackage } from '@shared/prepaid';
import { DEFAULT_CURRENCY } from '@shared/currencies';
import { Loading } from '../Loading';
import { apiErrorOf, type QueryError } from '@web/core/apiErrors';
import { showToast } from '../toaster';
import {
  usePostPrePaidPackagesAssignMutation,
  usePostPrePaidPackagesApiExpireMutation,
  useGetPrePaidPackagesTemplatesQuery,
  usePostPrePaidPackagesPurchaseMutation,
  useGetPrePaidPackagesListBySubscriberIdQuery,
} from '@web/core/packagesApi';
import './packages.css';
import { messageOr } from '@web/core/messages';

export interface SubscriberPackagesPanelProps {
  subscriberId: number;
}

type SaleKind = 'assign' | 'purchase';

const STATUS_INTENT: Record<string, Intent> = { active: Intent.SUCCESS, pending: Intent.PRIMARY, expired: Intent.NONE };

/** The server's message in the reader's language when the catalogue has it. */
export function errorText(intl: IntlShape, error: QueryError): string {
  const apiError = apiErrorOf(error);
  const id = apiError?.fields?.[0]?.messageId;
  const fallback = apiError?.message ?? intl.formatMessage({ id: 'app.error.generic' });
  return id ? messageOr(intl, id, fallback) : fallback;
}

export const money = (intl: IntlShape, value: number) => intl.formatNumber(value, { style: 'currency', currency: DEFAULT_CURRENCY });

function Utc({ at }: { at?: string }) {
  const intl = useIntl();
  if (!at) return <FormattedMessage id="format.none" />;
  const date = intl.formatDate(at, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
  return <time dateTime={at}>{intl.formatMessage({ id: 'packages.panel.utc' }, { date })}</time>;
}

function Usage({ used, total }: { used: number; total?: number }) {
  const intl = useIntl();
  if (total === undefined) return <FormattedMessage id="format.none" />;
  return <>{intl.formatMessage({ id: 'packages.panel.usage' }, { used: intl.formatNumber(used), total: intl.formatNumber(total) })}</>;
}

function SaleDialog({ kind, subscriberId, onClose }: { kind: SaleKind; subscriberId: number; onClose: () => void }) {
  const intl = useIntl();
  const selectId = useId();
  const { data: templates, isLoading } = useGetPrePaidPackagesTemplatesQuery({ subscriberId });
  const [templateId, setTemplateId] = useState<number | undefined>();
  const [firstUse, setFirstUse] = useState(false);
  const [assign, assigning] = usePostPrePaidPackagesAssignMutation();
  const [purchase, purchasing] = usePostPrePaidPackagesPurchaseMutation();
  const [error, setError] = useState<string | undefined>();
  const chosen = templates?.find((t) => t.id === templateId) ?? templates?.[0];

  const submit = async () => {
    if (!chosen) return;
    setError(undefined);
    try {
      const body = { subscriberId, templateId: chosen.id, activateUponFirstUse: firstUse };
      const sold = await (kind === 'assign' ? assign(body) : purchase(body)).unwrap();
      showToast({
        intent: Intent.SUCCESS,
        message: intl.formatMessage({ id: kind === 'assign' ? 'packages.assigned' : 'packages.purchased' }, { id: sold.id }),
      });
      onClose();
    } catch (e) {
      setError(errorText(intl, e as QueryError));
    }
  };

  return (
    <Dialog isOpen onClose={onClose} title={intl.formatMessage({ id: kind === 'assign' ? 'packages.dialog.assignTitle' : 'packages.dialog.purchaseTitle' })}>
      <DialogBody>
        {isLoading && <Loading />}
        {templates?.length === 0 && (
          <Callout intent={Intent.WARNING}>
            <FormattedMessage id="packages.dialog.noTemplates" />
          </Callout>
        )}
        {chosen && (
          <>
            <FormGroup label={intl.formatMessage({ id: 'packages.dialog.template' })} labelFor={selectId}>
              <HTMLSelect
                id={selectId}
                fill
                data-testid="package-template"
                value={chosen.id}
                onChange={(e) => setTemplateId(Number(e.currentTarget.value))}
                options={templates!.map((t) => ({
                  value: t.id,
                  label: intl.formatMessage({ id: 'packages.dialog.templateOption' }, { name: t.name, days: t.periodDays, price: money(intl, t.price) }),
                }))}
              />
            </FormGroup>
            <Checkbox
              checked={firstUse}
              onChange={(e) => setFirstUse(e.currentTarget.checked)}
              label={intl.formatMessage({ id: 'packages.dialog.activateUponFirstUse' })}
            />
            <p className="portal-packages-hint" data-testid="package-hint">
              {kind === 'assign'
                ? intl.formatMessage({ id: 'packages.dialog.assignHint' })
                : intl.formatMessage({ id: 'packages.dialog.purchaseHint' }, { price: money(intl, chosen.price) })}
            </p>
          </>
        )}
        {error && (
          <Callout intent={Intent.DANGER} role="alert" data-testid="package-error">
            {error}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose} text={intl.formatMessage({ id: 'form.cancel' })} />
            <Button
              intent={Intent.PRIMARY}
              data-testid="package-confirm"
              disabled={!chosen}
              loading={assigning.isLoading || purchasing.isLoading}
              onClick={submit}
              text={intl.formatMessage({ id: kind === 'assign' ? 'packages.panel.assign' : 'packages.panel.purchase' })}
            />
          </>
        }
      />
    </Dialog>
  );
}

export function SubscriberPackagesPanel({ subscriberId }: SubscriberPackagesPanelProps) {
  const intl = useIntl();
  const [showExpired, setShowExpired] = useState(false);
  const [selling, setSelling] = useState<SaleKind | undefined>();
  const [expiring, setExpiring] = useState<PrepaidPackage | undefined>();
  const { data: packages, isLoading, isError, refetch } = useGetPrePaidPackagesListBySubscriberIdQuery({ subscriberId, showExpired });
  const [expire, expiringState] = usePostPrePaidPackagesApiExpireMutation();
  const field = (name: string) => intl.formatMessage({ id: `entity.prepaidPackage.field.${name}` });

  const confirmExpire = async () => {
    if (!expiring) return;
    try {
      await expire({ packageId: expiring.id }).unwrap();
      showToast({ intent: Intent.SUCCESS, message: intl.formatMessage({ id: 'packages.expiredNow' }, { id: expiring.id }) });
    } catch (e) {
      showToast({ intent: Intent.DANGER, message: intl.formatMessage({ id: 'packages.actionError' }, { message: errorText(intl, e as QueryError) }) });
    }
    setExpiring(undefined);
  };

  return (
    <section className="portal-packages-panel" data-testid="subscriber-packages" aria-labelledby={`packages-${subscriberId}`}>
      <header className="portal-packages-header">
        <H4 id={`packages-${subscriberId}`}>
          <FormattedMessage id="packages.panel.title" />
        </H4>
        <div className="portal-packages-actions">
          <Switch
            className="portal-packages-switch"
            checked={showExpired}
            onChange={(e) => setShowExpired(e.currentTarget.checked)}
            label={intl.formatMessage({ id: 'packages.panel.showExpired' })}
          />
          <Button
            icon={<AddIcon />}
            data-testid="package-assign"
            onClick={() => setSelling('assign')}
            text={intl.formatMessage({ id: 'packages.panel.assign' })}
          />
          <Button
            icon={<ShoppingCartIcon />}
            intent={Intent.PRIMARY}
            data-testid="package-purchase"
            onClick={() => setSelling('purchase')}
            text={intl.formatMessage({ id: 'packages.panel.purchase' })}
          />
        </div>
      </header>
      {isLoading && <Loading />}
      {isError && (
        <Callout intent={Intent.DANGER} role="alert">
          <FormattedMessage id="packages.panel.loadError" />{' '}
          <Button variant="minimal" onClick={() => refetch()} text={intl.formatMessage({ id: 'list.refresh' })} />
        </Callout>
      )}
      {packages?.length === 0 && <NonIdealState description={<FormattedMessage id="packages.panel.empty" />} />}
      {packages && packages.length > 0 && (
        <div className="portal-packages-scroll">
          {/* A subscriber's packages, answered whole by the server, each with its own Expire action: no paging, sorting or search to offer. */}
          <HTMLTable compact striped className="portal-packages-table">
            <thead>
              <tr>
                {['id', 'templateName', 'status', 'activationDate', 'expirationDate', 'dataUsageMb', 'smsOut', 'smsIn', 'price'].map((name) => (
                  <th key={name} scope="col">
                    {field(name)}
                  </th>
                ))}
                <th scope="col" aria-label={intl.formatMessage({ id: 'packages.panel.expire' })} />
              </tr>
            </thead>
            <tbody>
              {packages.map((p) => (
                <tr key={p.id} data-testid="package-row" data-status={p.status}>
                  <td>{p.id}</td>
                  <td>{p.templateName}</td>
                  <td>
                    <Tag minimal intent={STATUS_INTENT[p.status]} data-testid="package-status">
                      {intl.formatMessage({ id: `enum.${p.status}` })}
                    </Tag>
                  </td>
                  <td>{p.activateUponFirstUse && !p.activationDate ? <FormattedMessage id="packages.panel.firstUse" /> : <Utc at={p.activationDate} />}</td>
                  <td>
                    <Utc at={p.expirationDate} />
                  </td>
                  <td>{p.unlimitedData ? <FormattedMessage id="packages.panel.unlimited" /> : <Usage used={p.dataUsageMb} total={p.dataMb} />}</td>
                  <td>
                    <Usage used={p.smsOutUsed} total={p.smsOut} />
                  </td>
                  <td>
                    <Usage used={p.smsInUsed} total={p.smsIn} />
                  </td>
                  <td className="portal-packages-money">{money(intl, p.price)}</td>
                  <td>
                    {p.status !== 'expired' && (
                      <Button
                        size="small"
                        variant="outlined"
                        intent={Intent.DANGER}
                        data-testid="package-expire"
                        onClick={() => setExpiring(p)}
                        text={intl.formatMessage({ id: 'packages.panel.expire' })}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
      {selling && <SaleDialog kind={selling} subscriberId={subscriberId} onClose={() => setSelling(undefined)} />}
      <Alert
        isOpen={expiring !== undefined}
        intent={Intent.DANGER}
        loading={expiringState.isLoading}
        confirmButtonText={intl.formatMessage({ id: 'packages.panel.expire' })}
        cancelButtonText={intl.formatMessage({ id: 'form.cancel' })}
        onConfirm={confirmExpire}
        onCancel={() => setExpiring(undefined)}
      >
        {expiring && intl.formatMessage({ id: 'packages.expireConfirm' }, { id: expiring.id })}
      </Alert>
    </section>
  );
}

export default SubscriberPackagesPanel;
