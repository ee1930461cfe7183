/**
 * The subscriber's panels, one per SubscriberDetails sub-privilege (plus quality of service and the daily
 * limit, which everyone sees). Each reads its own call, so a panel the role lacks is never asked for.
 */
import { Button, Callout, HTMLTable, Intent, ProgressBar, Section, SectionCard, Tag } from '@blueprintjs/core';
import { DownloadIcon, RefreshIcon } from '@blueprintjs/icons';
import { Suspense, lazy, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { countryNames } from '@shared/countries';
import type { EntitySchema } from '@shared/schema';
import type { FieldError } from '@shared/wire';
import { Loading } from '@web/app/Loading';
import { NO_PLAN, useGetPricingPlansQuery } from '@web/app/pricingPlansApi';
import { apiErrorOf } from '@web/engine/apiErrors';
import { usageIntent } from '@web/engine/cells';
import { formatBytes, formatCell } from '@web/engine/columns';
import { entityEndpoints } from '@web/engine/endpoints';
import { Pager } from '@web/engine/Pager';
import { showToast } from '@web/engine/toaster';
import type { EntityRow } from '@web/engine/types';
import { Facts } from './dialogs';
import { errorText, textOr, useOperations } from './operations';
import { StatusTag } from './StatusTag';
import {
  QOS_BLOCK, useGetSubscriberInfoAuditLogsByIdQuery, useChargesQuery, useGetSubscriberInfoDailyLimitByIdQuery, useDownloadNetworkEventsMutation,
  usePostMiscEquipmentMutation, useGetSummaSubscriberMigrationByIdQuery, usePostMsisdnByIdModifyDefaultMutation, useGetMsisdnByIdQuery, useNetworkEventsQuery,
  usePostSubscribersByIdPushPendingImsisMutation, useGetResellerInfoApiQosSpeedLimitsQuery, usePostSubscribersByIdAllowedNetworksMutation, usePutSubscribersByIdAndImsiPendingMutation, useGetSubscriberInfoSponsorImsisByIdQuery,
  useGetSubscribersByIdRoamingProfileQuery, useGetSubscriberInfoUsageLogsByIdQuery, usePutSubscribersByIdRoamingProfileHssMutation, type Equipment,
} from './subscriberApi';

const EntityForm = lazy(() => import('@web/engine/form/EntityForm'));

export type Subscriber = EntityRow & {
  subscriberId: number;
  name?: string | null;
  status?: 'active' | 'suspended';
  imsi?: string;
  iccid?: string;
  msisdn?: string | null;
  pricingPlanId?: number | null;
};

export interface PanelProps {
  subscriber: Subscriber;
  schema: EntitySchema;
}

/** One panel: a titled section; `wide` ones (the logs) span the whole row. */
export function Panel({ id, title, wide, actions, children }: { id: string; title: string; wide?: boolean; actions?: ReactNode; children: ReactNode }) {
  return (
    <Section
      className={wide ? 'portal-panel portal-panel-wide' : 'portal-panel'}
      compact
      title={title}
      rightElement={actions ? <div className="portal-panel-actions">{actions}</div> : undefined}
      data-testid={`panel-${id}`}
    >
      <SectionCard>{children}</SectionCard>
    </Section>
  );
}

function useLabel() {
  const intl = useIntl();
  return (id: string) => intl.formatMessage({ id });
}
const field = (name: string) => `entity.subscriber.field.${name}`;

function LoadError({ error }: { error: unknown }) {
  const intl = useIntl();
  return <Callout intent={Intent.DANGER}>{errorText(intl, error as never)}</Callout>;
}

function Empty() {
  return <p className="portal-empty"><FormattedMessage id="subscriber.empty" /></p>;
}

/** Edits some of the subscriber's own fields with the schema's form and rules. */
function FieldsForm({ subscriber, schema, fields }: PanelProps & { fields: readonly string[] }) {
  const intl = useIntl();
  const [update, state] = entityEndpoints(schema).update!.useMutation();
  const [serverErrors, setServerErrors] = useState<FieldError[]>([]);
  const submit = async (data: Record<string, unknown>) => {
    setServerErrors([]);
    // Every writable field goes along, as read with the row: an update keeps what it is sent.
    const result = await update({ ...data, subscriberId: subscriber.subscriberId });
    if (result.error) {
      setServerErrors(apiErrorOf(result.error)?.fields ?? []);
      showToast({ intent: Intent.DANGER, message: intl.formatMessage({ id: 'form.saveError' }, { message: errorText(intl, result.error) }) });
    } else showToast({ intent: Intent.SUCCESS, message: intl.formatMessage({ id: 'form.saved' }) });
  };
  return (
    <Suspense fallback={<Loading />}>
      <EntityForm schema={schema} formData={subscriber} fields={fields} onSubmit={submit} submitting={state.isLoading} serverErrors={serverErrors} />
    </Suspense>
  );
}

export function DetailsPanel(props: PanelProps) {
  const label = useLabel();
  return (
    <Panel id="details" title={label('subscriber.panel.details')}>
      <FieldsForm {...props} fields={['name']} />
    </Panel>
  );
}

export function AccountPanel({ subscriber, canOpen }: PanelProps & { canOpen: boolean }) {
  const label = useLabel();
  const name = subscriber.accountName as string | undefined;
  return (
    <Panel id="account" title={label('subscriber.panel.account')}>
      <Facts items={[
        [label(field('accountId')), subscriber.accountId as number],
        [label(field('accountName')), canOpen && name ? <Link to={`/account/${String(subscriber.accountId)}`}>{name}</Link> : name],
      ]} />
    </Panel>
  );
}

export function ResellerPanel({ subscriber }: PanelProps) {
  const label = useLabel();
  return (
    <Panel id="reseller" title={label('subscriber.panel.reseller')}>
      <Facts items={[[label(field('resellerId')), subscriber.resellerId as number], [label(field('resellerName')), subscriber.resellerName as string]]} />
    </Panel>
  );
}

function useCountry() {
  const intl = useIntl();
  return (code: unknown) => (typeof code === 'string' && code ? countryNames(intl.locale)[code.toUpperCase()] ?? code : null);
}

export function LocationPanel({ subscriber }: PanelProps) {
  const intl = useIntl();
  const label = useLabel();
  const country = useCountry();
  return (
    <Panel id="location" title={label('subscriber.panel.location')}>
      <Facts items={[
        [label(field('country')), country(subscriber.country)],
        [label(field('network')), subscriber.network as string],
        [label(field('lastLocationAt')), subscriber.lastLocationAt ? formatCell(intl, 'datetime', subscriber.lastLocationAt) : null],
      ]} />
    </Panel>
  );
}

export function NetworkPanel({ subscriber }: PanelProps) {
  const label = useLabel();
  const country = useCountry();
  return (
    <Panel id="network" title={label('subscriber.panel.network')}>
      <Facts items={[[label(field('network')), subscriber.network as string], [label(field('country')), country(subscriber.country)]]} />
    </Panel>
  );
}

export function SimPanel({ subscriber, openSimInfo, openPairing }: PanelProps & { openSimInfo: () => void; openPairing: () => void }) {
  const label = useLabel();
  return (
    <Panel id="sim" title={label('subscriber.panel.sim')}>
      <Facts items={[
        [label(field('iccid')), <Link className="portal-mono" to={`/sim/${subscriber.iccid}`} data-testid="sim-link">{subscriber.iccid}</Link>],
        [label(field('imsi')), <span className="portal-mono">{subscriber.imsi}</span>],
      ]} />
      <div className="portal-panel-buttons">
        <Button size="small" onClick={openSimInfo} data-testid="action-sim-info">{label('subscriber.action.simInfo')}</Button>
        <Button size="small" onClick={openPairing} data-testid="action-pair-device">{label('subscriber.action.pairDevice')}</Button>
      </div>
    </Panel>
  );
}

export function StatusPanel({ subscriber }: PanelProps) {
  const label = useLabel();
  return (
    <Panel id="status" title={label('subscriber.panel.status')}>
      <Facts items={[[label(field('status')), <StatusTag value={subscriber.status} />]]} />
    </Panel>
  );
}

export function MigrationPanel({ subscriber }: PanelProps) {
  const label = useLabel();
  const { data, error } = useGetSummaSubscriberMigrationByIdQuery(String(subscriber.subscriberId));
  return (
    <Panel id="migration" title={label('subscriber.panel.migration')}>
      {error ? <LoadError error={error} /> : !data ? <Loading /> : (
        <Facts items={[[label(field('migrationStatus')), data.migrationStatus ? <StatusTag value={data.migrationStatus} /> : label('subscriber.migration.never')]]} />
      )}
    </Panel>
  );
}

export function MsisdnPanel({ subscriber }: PanelProps) {
  const intl = useIntl();
  const label = useLabel();
  const { data, error } = useGetMsisdnByIdQuery(String(subscriber.subscriberId));
  const [makeDefault, state] = usePostMsisdnByIdModifyDefaultMutation();
  const { follow, busy } = useOperations();
  const choose = async (msisdn: string) => {
    const result = await makeDefault({ id: String(subscriber.subscriberId), body: { msisdn } });
    if (result.error) showToast({ intent: Intent.DANGER, message: errorText(intl, result.error) });
    else follow('msisdn-default', result);
  };
  return (
    <Panel id="msisdn" title={label('subscriber.panel.msisdn')}>
      {error ? <LoadError error={error} /> : !data ? <Loading /> : data.length === 0 ? <Empty /> : (
        <HTMLTable compact className="portal-panel-table" data-testid="msisdn-table">
          <tbody>
            {data.map((row) => (
              <tr key={row.msisdn}>
                <td className="portal-mono">{row.msisdn}</td>
                <td className="portal-cell-end">
                  {row.isDefault ? <Tag minimal intent={Intent.PRIMARY}>{label('subscriber.msisdn.default')}</Tag> : (
                    <Button size="small" variant="minimal" disabled={busy || state.isLoading} onClick={() => choose(row.msisdn)} data-testid={`make-default-${row.msisdn}`}>
                      {label('subscriber.msisdn.makeDefault')}
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </Panel>
  );
}

export function SponsorImsisPanel({ subscriber }: PanelProps) {
  const intl = useIntl();
  const label = useLabel();
  const { data, error } = useGetSubscriberInfoSponsorImsisByIdQuery(String(subscriber.subscriberId));
  const [setPending, pendingState] = usePutSubscribersByIdAndImsiPendingMutation();
  const [push, pushState] = usePostSubscribersByIdPushPendingImsisMutation();
  const { follow, busy } = useOperations();
  const anyPending = (data ?? []).some((r) => r.pending);
  const mark = async (imsi: string) => {
    const result = await setPending({ id: String(subscriber.subscriberId), imsi });
    if (result.error) showToast({ intent: Intent.DANGER, message: errorText(intl, result.error) });
  };
  return (
    <Panel
      id="sponsor-imsis"
      title={label('subscriber.panel.sponsorImsis')}
      actions={anyPending && (
        <Button size="small" disabled={busy} loading={pushState.isLoading} onClick={async () => follow('push-pending-imsis', await push(String(subscriber.subscriberId)))}>
          {label('subscriber.action.pushPending')}
        </Button>
      )}
    >
      {error ? <LoadError error={error} /> : !data ? <Loading /> : data.length === 0 ? <Empty /> : (
        <HTMLTable compact className="portal-panel-table">
          <thead><tr><th>{label(field('imsi'))}</th><th>{label('subscriber.sponsor')}</th><th /></tr></thead>
          <tbody>
            {data.map((row) => (
              <tr key={row.imsi}>
                <td className="portal-mono">{row.imsi}</td>
                <td>{row.sponsorName}</td>
                <td className="portal-cell-end">
                  {row.pending ? <Tag minimal intent={Intent.PRIMARY}>{label('subscriber.imsi.pending')}</Tag> : (
                    <Button size="small" variant="minimal" disabled={pendingState.isLoading} onClick={() => mark(row.imsi)}>{label('subscriber.action.setPending')}</Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </Panel>
  );
}

export function GroupPanel(props: PanelProps) {
  return (
    <Panel id="group" title={useLabel()('subscriber.panel.group')}>
      <FieldsForm {...props} fields={['groupName']} />
    </Panel>
  );
}

export function ApnPanel(props: PanelProps) {
  return (
    <Panel id="apn" title={useLabel()('subscriber.panel.apn')}>
      <FieldsForm {...props} fields={['apn']} />
    </Panel>
  );
}

/** The device's make and model from the first eight digits of its IMEI (the TAC). */
function EquipmentLookup({ imei }: { imei: string | undefined }) {
  const intl = useIntl();
  const label = useLabel();
  const [lookup, state] = usePostMiscEquipmentMutation();
  const [found, setFound] = useState<Equipment | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const run = async () => {
    if (!imei) return;
    setFound(null);
    setProblem(null);
    const result = await lookup({ imei });
    if (result.error) setProblem(errorText(intl, result.error));
    else setFound(result.data);
  };
  return (
    <div className="portal-equipment">
      <Button size="small" disabled={!imei} loading={state.isLoading} onClick={run} data-testid="equipment-lookup">{label('subscriber.equipment.lookup')}</Button>
      {found && (
        <span data-testid="equipment">
          <FormattedMessage id="subscriber.equipment.found" values={{ make: found.make, model: found.model }} />
          {found.deviceType && <Tag minimal className="portal-tag-gap">{found.deviceType}</Tag>}
        </span>
      )}
      {problem && <span className="portal-text-danger" role="alert">{problem}</span>}
    </div>
  );
}

export function DevicePanel(props: PanelProps) {
  return (
    <Panel id="device" title={useLabel()('subscriber.panel.device')}>
      <FieldsForm {...props} fields={['deviceType', 'device', 'imei']} />
      <EquipmentLookup imei={(props.subscriber.imei as string | undefined) ?? undefined} />
    </Panel>
  );
}

const CHARGES_PAGE = 10;

export function ServicesPanel({ subscriber }: PanelProps) {
  const intl = useIntl();
  const label = useLabel();
  const plans = useGetPricingPlansQuery();
  const [page, setPage] = useState(1);
  const { data, error } = useChargesQuery({ id: subscriber.subscriberId, page: page - 1, size: CHARGES_PAGE });
  const planId = subscriber.pricingPlanId ?? null;
  const planName = planId === null || planId === NO_PLAN
    ? label('pricingPlan.none')
    : plans.data?.pricingPlans.find((p) => p.pricingPlanId === planId)?.pricingPlanName ?? label('pricingPlan.setByAdmin');
  return (
    <Panel id="services" title={label('subscriber.panel.services')} wide>
      <Facts items={[
        [label(field('balance')), formatCell(intl, 'money', subscriber.balance)],
        [label(field('pricingPlanId')), <span data-testid="pricing-plan-name">{planName}</span>],
      ]} />
      <h4 className="portal-panel-subtitle">{label('subscriber.charges')}</h4>
      {error ? <LoadError error={error} /> : !data ? <Loading /> : data.items.length === 0 ? <Empty /> : (
        <>
          <HTMLTable compact striped className="portal-panel-table" data-testid="charges-table">
            <thead><tr><th>{label('subscriber.log.when')}</th><th>{label('subscriber.charge.kind')}</th><th className="portal-cell-number">{label('subscriber.charge.amount')}</th><th>{label('subscriber.credit.description')}</th><th>{label('subscriber.log.who')}</th></tr></thead>
            <tbody>
              {data.items.map((c) => (
                <tr key={c.id}>
                  <td>{formatCell(intl, 'datetime', c.createdAt)}</td>
                  <td>{textOr(intl, `subscriber.charge.${c.kind}`, c.kind)}</td>
                  <td className="portal-cell-number">{formatCell(intl, 'money', c.amount)}</td>
                  <td>{c.description}</td>
                  <td>{c.username}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          {data.totalPageCount > 1 && <Pager page={page} pages={data.totalPageCount} total={data.totalItemsCount} onPage={setPage} />}
        </>
      )}
    </Panel>
  );
}

export function RoamingProfilePanel({ subscriber, canOpen }: PanelProps & { canOpen: boolean }) {
  const intl = useIntl();
  const label = useLabel();
  const { data, error } = useGetSubscribersByIdRoamingProfileQuery(String(subscriber.subscriberId));
  const [write, state] = usePutSubscribersByIdRoamingProfileHssMutation();
  const { follow, busy } = useOperations();
  const profile = data?.roamingProfile;
  const last = data?.lastHssUpdate;
  return (
    <Panel
      id="roaming-profile"
      title={label('subscriber.panel.roamingProfile')}
      actions={profile && (
        <Button size="small" disabled={busy} loading={state.isLoading} onClick={async () => follow('roaming-profile-hss', await write({ id: String(subscriber.subscriberId), body: {} }))}>
          {label('subscriber.action.writeHss')}
        </Button>
      )}
    >
      {error ? <LoadError error={error} /> : !data ? <Loading /> : !profile ? <Empty /> : (
        <Facts items={[
          [label('subscriber.roaming.profile'), canOpen ? <Link to={`/roaming-profile/${profile.id}`}>{profile.name}</Link> : profile.name],
          [label('subscriber.roaming.reference'), profile.reference],
          [label('subscriber.roaming.slots'), profile.slots],
          [label('subscriber.roaming.review'), <StatusTag value={profile.reviewState} />],
          [label('subscriber.roaming.lastHss'), last ? <><StatusTag value={last.status === 'failed' ? 'error' : last.status} /> {formatCell(intl, 'datetime', last.finishedAt ?? last.createdAt)}</> : null],
        ]} />
      )}
    </Panel>
  );
}

export function AllowedNetworksPanel({ subscriber }: PanelProps) {
  const label = useLabel();
  const [reset, state] = usePostSubscribersByIdAllowedNetworksMutation();
  const { follow, busy } = useOperations();
  return (
    <Panel id="allowed-networks" title={label('subscriber.panel.allowedNetworks')}>
      <p>{label('subscriber.allowedNetworks.explain')}</p>
      <Button size="small" icon={<RefreshIcon />} disabled={busy} loading={state.isLoading} onClick={async () => follow('reset-allowed-networks', await reset(String(subscriber.subscriberId)))}>
        {label('subscriber.action.resetAllowed')}
      </Button>
    </Panel>
  );
}

export function QosPanel({ subscriber }: PanelProps) {
  const intl = useIntl();
  const label = useLabel();
  const { data } = useGetSubscriberInfoDailyLimitByIdQuery(String(subscriber.subscriberId));
  const speeds = useGetResellerInfoApiQosSpeedLimitsQuery();
  const qos = data?.qosThrottling;
  const speed = qos && qos !== QOS_BLOCK ? speeds.data?.find((s) => s.id === qos)?.name ?? qos : null;
  return (
    <Panel id="qos" title={label('subscriber.panel.qos')}>
      {!data ? <Loading /> : (
        <Facts testId="qos-facts" items={[
          [label(field('qosThrottling')), data.dailyLimitBytes === null ? label('subscriber.qos.noLimit') : speed ? intl.formatMessage({ id: 'subscriber.qos.throttle' }, { speed }) : label('subscriber.qos.block')],
          [label('subscriber.qos.now'), data.effect ? <Tag minimal intent={Intent.WARNING}>{label(`subscriber.qos.effect.${data.effect}`)}</Tag> : label('subscriber.qos.fullSpeed')],
        ]} />
      )}
    </Panel>
  );
}

export function DailyLimitPanel({ subscriber }: PanelProps) {
  const intl = useIntl();
  const label = useLabel();
  const { data, error } = useGetSubscriberInfoDailyLimitByIdQuery(String(subscriber.subscriberId));
  const limit = data?.dailyLimitBytes ?? null;
  return (
    <Panel id="daily-limit" title={label('subscriber.panel.dailyLimit')}>
      {error ? <LoadError error={error} /> : !data ? <Loading /> : (
        <>
          <Facts testId="daily-limit-facts" items={[
            [label(field('dailyLimitBytes')), limit === null ? label('subscriber.dailyLimit.none') : formatBytes(intl, limit)],
            [label(field('usageTodayBytes')), formatBytes(intl, data.usageTodayBytes)],
          ]} />
          {limit !== null && (
            <ProgressBar animate={false} stripes={false} intent={usageIntent(data.usageTodayBytes, limit)} value={Math.min(1, data.usageTodayBytes / limit)} aria-label={label(field('usageTodayBytes'))} />
          )}
        </>
      )}
    </Panel>
  );
}

const EVENTS_PAGE = 20;

export function NetworkEventsPanel({ subscriber }: PanelProps) {
  const intl = useIntl();
  const label = useLabel();
  const imsi = String(subscriber.imsi ?? '');
  const [page, setPage] = useState(1);
  const { data, error, isFetching, refetch } = useNetworkEventsQuery({ subscriberId: subscriber.subscriberId, imsi, page: page - 1, size: EVENTS_PAGE }, { skip: !imsi });
  const [download, downloading] = useDownloadNetworkEventsMutation();
  const save = async () => {
    const result = await download(imsi);
    if (result.error) showToast({ intent: Intent.DANGER, message: label('list.downloadError') });
  };
  return (
    <Panel
      id="network-events"
      title={label('subscriber.panel.networkEvents')}
      wide
      actions={
        <>
          <Button size="small" variant="minimal" icon={<RefreshIcon />} aria-label={label('list.refresh')} loading={isFetching} onClick={() => void refetch()} />
          <Button size="small" icon={<DownloadIcon />} loading={downloading.isLoading} onClick={save} data-testid="network-events-download">{label('list.download')}</Button>
        </>
      }
    >
      {error ? <LoadError error={error} /> : !data ? <Loading /> : data.items.length === 0 ? <Empty /> : (
        <>
          <div className="portal-table-scroll">
            <HTMLTable compact striped className="portal-panel-table" data-testid="network-events-table">
              <thead><tr><th>{label('subscriber.log.when')}</th><th>{label('subscriber.event.protocol')}</th><th>{label('subscriber.event.operation')}</th><th>{label('subscriber.event.result')}</th><th>{label('subscriber.event.detail')}</th></tr></thead>
              <tbody>
                {data.items.map((e) => (
                  <tr key={e.id}>
                    <td className="portal-nowrap">{formatCell(intl, 'datetime', e.createdAt)}</td>
                    <td>{e.protocol}</td>
                    <td>{e.operation}</td>
                    <td><Tag minimal intent={e.result === 'success' ? Intent.SUCCESS : Intent.DANGER}>{textOr(intl, `subscriber.event.${e.result}`, e.result)}</Tag></td>
                    <td>{e.detail}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
          <Pager page={page} pages={data.totalPageCount} total={data.totalItemsCount} onPage={setPage} />
        </>
      )}
    </Panel>
  );
}

export function UsageLogsPanel({ subscriber }: PanelProps) {
  const intl = useIntl();
  const label = useLabel();
  const { data, error } = useGetSubscriberInfoUsageLogsByIdQuery({ id: String(subscriber.subscriberId) });
  return (
    <Panel id="usage-logs" title={label('subscriber.panel.usageLogs')} wide>
      {error ? <LoadError error={error} /> : !data ? <Loading /> : data.length === 0 ? <Empty /> : (
        <>
          <p className="portal-muted-note"><FormattedMessage id="subscriber.usage.latest" values={{ count: data.length }} /></p>
          <div className="portal-table-scroll portal-table-tall">
            <HTMLTable compact striped className="portal-panel-table" data-testid="usage-table">
              <thead><tr><th>{label('subscriber.log.when')}</th><th>{label('subscriber.usage.type')}</th><th>PLMN</th><th>APN</th><th className="portal-cell-number">{label('subscriber.usage.up')}</th><th className="portal-cell-number">{label('subscriber.usage.down')}</th><th>{label('subscriber.usage.result')}</th></tr></thead>
              <tbody>
                {data.map((u) => (
                  <tr key={u.id}>
                    <td className="portal-nowrap">{formatCell(intl, 'datetime', u.at)}</td>
                    <td>{u.requestType}</td>
                    <td className="portal-mono">{u.plmn}</td>
                    <td>{u.apn}</td>
                    <td className="portal-cell-number">{formatBytes(intl, u.bytesUp)}</td>
                    <td className="portal-cell-number">{formatBytes(intl, u.bytesDown)}</td>
                    <td>{u.resultCode}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
        </>
      )}
    </Panel>
  );
}

/** A changed field's value as text: byte counts and money as such, nothing as a dash. */
function AuditValues({ values }: { values: Record<string, unknown> }) {
  const intl = useIntl();
  const speeds = useGetResellerInfoApiQosSpeedLimitsQuery();
  const entries = Object.entries(values);
  const qosText = (id: unknown) => (id === QOS_BLOCK ? intl.formatMessage({ id: 'subscriber.qos.block' }) : speeds.data?.find((s) => s.id === id)?.name ?? String(id));
  if (entries.length === 0) return <>{intl.formatMessage({ id: 'format.none' })}</>;
  return (
    <ul className="portal-audit-values">
      {entries.map(([key, value]) => {
        const title = intl.messages[field(key)] ? intl.formatMessage({ id: field(key) }) : key;
        const text = value === null || value === undefined || value === '' ? intl.formatMessage({ id: 'format.none' })
          : key.endsWith('Bytes') && typeof value === 'number' ? formatBytes(intl, value)
            : key === 'qosThrottling' ? qosText(value)
            : key === 'status' ? textOr(intl, `subscriber.status.${String(value)}`, String(value))
              : Array.isArray(value) ? value.join(', ') : String(value);
        return <li key={key}><span className="portal-audit-field">{title}:</span> {text}</li>;
      })}
    </ul>
  );
}

export function AuditLogsPanel({ subscriber }: PanelProps) {
  const intl = useIntl();
  const label = useLabel();
  const { data, error } = useGetSubscriberInfoAuditLogsByIdQuery(String(subscriber.subscriberId));
  return (
    <Panel id="audit-logs" title={label('subscriber.panel.auditLogs')} wide>
      {error ? <LoadError error={error} /> : !data ? <Loading /> : data.length === 0 ? <Empty /> : (
        <div className="portal-table-scroll portal-table-tall">
          <HTMLTable compact striped className="portal-panel-table" data-testid="audit-table">
            <thead><tr><th>{label('subscriber.log.when')}</th><th>{label('subscriber.log.who')}</th><th>{label('subscriber.audit.action')}</th><th>{label('subscriber.audit.before')}</th><th>{label('subscriber.audit.after')}</th></tr></thead>
            <tbody>
              {data.map((a) => (
                <tr key={a.id}>
                  <td className="portal-nowrap">{formatCell(intl, 'datetime', a.at)}</td>
                  <td>{a.username}</td>
                  <td>{textOr(intl, `subscriber.operation.${a.action}`, a.action)}</td>
                  <td><AuditValues values={a.before} /></td>
                  <td><AuditValues values={a.after} /></td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
    </Panel>
  );
}
