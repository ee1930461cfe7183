/**
 * The subscriber detail page: a header with who the subscriber is, its status and what the user may do to
 * it, then the panels the user's SubscriberDetails sub-privileges grant, in a responsive grid. Network
 * operations show as pending under the header until the core network has answered, then their outcome.
 */
import { Alert, Button, H2, Intent, NonIdealState, Tooltip } from '@blueprintjs/core';
import {
  ArrowLeftIcon,
  ChatIcon,
  DashboardIcon,
  DollarIcon,
  ErrorIcon,
  MapMarkerIcon,
  PauseIcon,
  PhoneIcon,
  PlayIcon,
  RefreshIcon,
  SearchIcon,
  SwapHorizontalIcon,
} from '@blueprintjs/icons';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate, useParams } from 'react-router-dom';
import { hasPrivilege } from '@shared/privileges';
import { useLab } from '@web/core/labsApi';
import { selectPrivileges } from '@web/core/authSlice';
import { useAppSelector } from '@web/core/hooks';
import { Loading } from '@web/ui/Loading';
import { NO_PLAN } from '@web/core/pricingPlansApi';
import { httpStatus } from '@web/core/apiErrors';
import { entityEndpoints } from '@web/core/endpoints';
import { usePageTitle } from '@web/engine/pageTitle';
import { findSchema } from '@web/core/schemas';
import { useIsAdmin } from '@web/core/useIsAdmin';
import { ChangeMsisdnDialog, CreditDialog, DailyLimitDialog, Facts, PairDeviceDialog, PricingPlanDialog, SimInfoDialog } from './dialogs';
import { OperationOutcome, OperationsProvider, useOperations } from './operations';
import {
  AccountPanel,
  AllowedNetworksPanel,
  ApnPanel,
  AuditLogsPanel,
  CustomFieldsPanel,
  DailyLimitPanel,
  DetailsPanel,
  DevicePanel,
  GroupPanel,
  LocationPanel,
  MigrationPanel,
  MsisdnPanel,
  NetworkEventsPanel,
  NetworkPanel,
  QosPanel,
  ResellerPanel,
  RoamingProfilePanel,
  ServicesPanel,
  SimPanel,
  SponsorImsisPanel,
  StatusPanel,
  UsageLogsPanel,
  type Subscriber,
} from './panels';
import { StatusTag } from '@web/ui/StatusTag';
import { SubscriberPackagesSlot } from './SubscriberPackagesSlot';
import { usePostSubscriberInfoByIdCancelLocationMutation, useGetSubscriberInfoDailyLimitByIdQuery, usePostSubscriberInfoApiMutation } from './subscriberApi';
import './subscribers.css';

const schema = findSchema('subscriber')!;

type DialogName = 'dailyLimit' | 'pricingPlan' | 'credit' | 'msisdn' | 'simInfo' | 'pairDevice' | 'sms';

const SendSmsDialog = lazy(() => import('./SendSmsDialog'));

/** Whether the user sees a panel: the administrator sees all; others need the SubscriberDetails sub-privilege. */
function usePanels() {
  const privileges = useAppSelector(selectPrivileges) ?? [];
  const admin = useIsAdmin();
  return {
    may: (panel: string) => admin || hasPrivilege(privileges, 'SubscriberDetails', panel),
    accounts: admin || hasPrivilege(privileges, 'Accounts'),
    profiles: admin || hasPrivilege(privileges, 'RoamingProfile'),
  };
}

function StatusAction({ subscriber }: { subscriber: Subscriber }) {
  const intl = useIntl();
  const [run, state] = usePostSubscriberInfoApiMutation();
  const { follow, busy } = useOperations();
  const [confirming, setConfirming] = useState(false);
  const suspended = subscriber.status === 'suspended';
  const operation = suspended ? 'reactivate' : 'suspend';
  const go = async () => {
    setConfirming(false);
    follow(operation, await run({ operation, subscriberId: subscriber.subscriberId }));
  };
  return (
    <>
      <Button
        size="small"
        intent={suspended ? Intent.SUCCESS : Intent.WARNING}
        icon={suspended ? <PlayIcon /> : <PauseIcon />}
        disabled={busy}
        loading={state.isLoading}
        onClick={() => (suspended ? void go() : setConfirming(true))}
        data-testid={`action-${operation}`}
      >
        {intl.formatMessage({ id: `subscriber.action.${operation}` })}
      </Button>
      <Alert
        className="portal-suspend-alert"
        isOpen={confirming}
        intent={Intent.WARNING}
        icon={<PauseIcon />}
        confirmButtonText={intl.formatMessage({ id: 'subscriber.action.suspend' })}
        cancelButtonText={intl.formatMessage({ id: 'form.cancel' })}
        onConfirm={go}
        onCancel={() => setConfirming(false)}
      >
        <p data-testid="suspend-confirm">
          {intl.formatMessage({ id: 'subscriber.suspend.confirm' }, { name: subscriber.name || String(subscriber.subscriberId) })}
        </p>
      </Alert>
    </>
  );
}

function RefreshSimAction({ subscriberId }: { subscriberId: number }) {
  const intl = useIntl();
  const [run, state] = usePostSubscriberInfoApiMutation();
  const { follow, busy } = useOperations();
  return (
    <Button
      size="small"
      icon={<RefreshIcon />}
      disabled={busy}
      loading={state.isLoading}
      data-testid="action-refresh-sim"
      onClick={async () => follow('refresh-sim', await run({ operation: 'refresh-sim', subscriberId }))}
    >
      {intl.formatMessage({ id: 'subscriber.action.refreshSim' })}
    </Button>
  );
}

function CancelLocationAction({ subscriberId }: { subscriberId: number }) {
  const intl = useIntl();
  const [cancel, state] = usePostSubscriberInfoByIdCancelLocationMutation();
  const { follow, busy } = useOperations();
  return (
    <Button
      size="small"
      icon={<MapMarkerIcon />}
      disabled={busy}
      loading={state.isLoading}
      data-testid="header-cancel-location"
      onClick={async () => follow('cancel-location', await cancel(subscriberId))}
    >
      {intl.formatMessage({ id: 'subscriber.action.cancelLocation' })}
    </Button>
  );
}

/** An SMS to the SIM is a network operation: it waits while another is pending. */
function SendSmsAction({ open }: { open: () => void }) {
  const intl = useIntl();
  const { busy } = useOperations();
  return (
    <Button size="small" icon={<ChatIcon />} disabled={busy} onClick={open} data-testid="action-send-sms">
      {intl.formatMessage({ id: 'subscriber.action.sendSms' })}
    </Button>
  );
}

/** Credit needs a pricing plan first: until then the button is off and says why. */
function CreditButton({ subscriber, open }: { subscriber: Subscriber; open: () => void }) {
  const intl = useIntl();
  const noPlan = subscriber.pricingPlanId === null || subscriber.pricingPlanId === undefined || subscriber.pricingPlanId === NO_PLAN;
  const button = (
    <Button size="small" icon={<DollarIcon />} disabled={noPlan} onClick={open} data-testid="action-credit">
      {intl.formatMessage({ id: 'subscriber.action.credit' })}
    </Button>
  );
  if (!noPlan) return button;
  return (
    <>
      <Tooltip content={intl.formatMessage({ id: 'validation.credit.planRequired' })}>{button}</Tooltip>
      <span className="portal-action-note" data-testid="credit-needs-plan">
        {intl.formatMessage({ id: 'validation.credit.planRequired' })}
      </span>
    </>
  );
}

function Header({ subscriber, actions }: { subscriber: Subscriber; actions: ReactNode }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const label = (name: string) => intl.formatMessage({ id: `entity.subscriber.field.${name}` });
  const title =
    subscriber.name ||
    intl.formatMessage({ id: 'form.edit.title' }, { entity: intl.formatMessage({ id: 'entity.subscriber.single' }), id: subscriber.subscriberId });
  usePageTitle(title);
  return (
    <header className="portal-subscriber-header" data-testid="subscriber-header">
      <div className="portal-subscriber-title">
        <Button
          variant="minimal"
          icon={<ArrowLeftIcon className="portal-mirror-rtl" />}
          onClick={() => navigate('/subscribers')}
          aria-label={intl.formatMessage({ id: 'entity.subscriber.title' })}
        />
        <H2 data-testid="subscriber-name">{title}</H2>
        <StatusTag value={subscriber.status} large />
      </div>
      <Facts
        testId="subscriber-ids"
        items={[
          [label('subscriberId'), subscriber.subscriberId],
          [
            label('iccid'),
            <span className="portal-mono" data-testid="subscriber-iccid">
              {subscriber.iccid}
            </span>,
          ],
          [label('imsi'), <span className="portal-mono">{subscriber.imsi}</span>],
          [
            label('msisdn'),
            subscriber.msisdn ? (
              <span className="portal-mono" data-testid="subscriber-msisdn">
                {subscriber.msisdn}
              </span>
            ) : null,
          ],
        ]}
      />
      <div className="portal-subscriber-actions" role="toolbar" aria-label={intl.formatMessage({ id: 'subscriber.actions' })}>
        {actions}
      </div>
    </header>
  );
}

function SubscriberView({ subscriber }: { subscriber: Subscriber }) {
  const intl = useIntl();
  const { may, accounts, profiles } = usePanels();
  const [dialog, setDialog] = useState<DialogName | null>(null);
  const close = () => setDialog(null);
  const id = subscriber.subscriberId;
  const limit = useGetSubscriberInfoDailyLimitByIdQuery(id);
  const props = { subscriber, schema };
  const t = (key: string) => intl.formatMessage({ id: key });

  // Sending SMS is a lab: a tenant that switched it off does not see the action.
  const sms = useLab('subscriberSms');
  const status = may('Status') ? <StatusAction subscriber={subscriber} /> : null;
  const refresh = may('IccidSim') ? <RefreshSimAction subscriberId={id} /> : null;
  const dailyLimit = (
    <Button size="small" icon={<DashboardIcon />} onClick={() => setDialog('dailyLimit')} data-testid="action-daily-limit">
      {t('subscriber.action.dailyLimit')}
    </Button>
  );
  const changeMsisdn = may('Msisdn') ? (
    <Button size="small" icon={<PhoneIcon />} onClick={() => setDialog('msisdn')} data-testid="action-change-msisdn">
      {t('subscriber.action.changeMsisdn')}
    </Button>
  ) : null;
  const services = may('Services') ? (
    <>
      <Button size="small" icon={<SwapHorizontalIcon />} onClick={() => setDialog('pricingPlan')} data-testid="action-pricing-plan">
        {t('subscriber.action.pricingPlan')}
      </Button>
      <CreditButton subscriber={subscriber} open={() => setDialog('credit')} />
    </>
  ) : null;

  return (
    <>
      <Header
        subscriber={subscriber}
        actions={
          <>
            {status}
            {refresh}
            {may('Location') && <CancelLocationAction subscriberId={id} />}
            {dailyLimit}
            {changeMsisdn}
            {sms && may('NetworkEvents') && <SendSmsAction open={() => setDialog('sms')} />}
            {services}
          </>
        }
      />
      <OperationOutcome />
      <div className="portal-panels" data-testid="subscriber-panels">
        <DetailsPanel {...props} />
        <CustomFieldsPanel {...props} />
        {may('Status') && <StatusPanel {...props} />}
        {may('IccidSim') && <SimPanel {...props} openSimInfo={() => setDialog('simInfo')} openPairing={() => setDialog('pairDevice')} />}
        <DailyLimitPanel {...props} />
        <QosPanel {...props} />
        {may('Msisdn') && <MsisdnPanel {...props} />}
        {may('Account') && <AccountPanel {...props} canOpen={accounts} />}
        {may('Reseller') && <ResellerPanel {...props} />}
        {may('Location') && <LocationPanel {...props} />}
        {may('Network') && <NetworkPanel {...props} />}
        {may('RoamingProfile') && <RoamingProfilePanel {...props} canOpen={profiles} />}
        {may('AllowedNetworks') && <AllowedNetworksPanel {...props} />}
        {may('SponsorImsis') && <SponsorImsisPanel {...props} />}
        {may('MigrationStatus') && <MigrationPanel {...props} />}
        {may('ImeiDevice') && <DevicePanel {...props} />}
        {may('GroupName') && <GroupPanel {...props} />}
        {may('Apn') && <ApnPanel {...props} />}
        {may('Services') && <ServicesPanel {...props} />}
        <SubscriberPackagesSlot subscriberId={id} />
        {may('NetworkEvents') && <NetworkEventsPanel {...props} />}
        {may('UsageLogs') && <UsageLogsPanel {...props} />}
        {may('AuditLogs') && <AuditLogsPanel {...props} />}
      </div>
      {dialog === 'dailyLimit' && <DailyLimitDialog subscriberId={id} current={limit.data} onClose={close} />}
      {dialog === 'pricingPlan' && <PricingPlanDialog subscriberId={id} currentPlanId={subscriber.pricingPlanId ?? null} onClose={close} />}
      {dialog === 'credit' && <CreditDialog subscriberId={id} onClose={close} />}
      {dialog === 'msisdn' && (
        <ChangeMsisdnDialog
          subscriberId={id}
          resellerId={typeof subscriber.resellerId === 'number' ? subscriber.resellerId : undefined}
          current={subscriber.msisdn ?? null}
          onClose={close}
        />
      )}
      {dialog === 'simInfo' && <SimInfoDialog subscriberId={id} onClose={close} />}
      {dialog === 'pairDevice' && <PairDeviceDialog subscriberId={id} onClose={close} />}
      {sms && dialog === 'sms' && (
        <Suspense fallback={null}>
          <SendSmsDialog subscriberId={id} onClose={close} />
        </Suspense>
      )}
    </>
  );
}

export default function SubscriberDetailPage() {
  const { id = '' } = useParams();
  const valid = /^\d{1,9}$/.test(id);
  const row = entityEndpoints(schema).get!.useQuery(id, { skip: !valid });
  const status = httpStatus(row.error);
  const subscriber = row.data as Subscriber | undefined;
  return (
    <div className="portal-page portal-subscriber" data-testid="subscriber-detail">
      {!valid || (status !== undefined && [400, 403, 404].includes(status)) ? (
        <div data-testid="detail-not-found">
          <NonIdealState icon={<SearchIcon size={48} />} description={<FormattedMessage id="form.notFound" />} />
        </div>
      ) : row.isError ? (
        <NonIdealState icon={<ErrorIcon size={48} />} description={<FormattedMessage id="app.error.generic" />} />
      ) : !subscriber ? (
        <Loading />
      ) : (
        <OperationsProvider subscriberId={subscriber.subscriberId}>
          <SubscriberView subscriber={subscriber} />
        </OperationsProvider>
      )}
    </div>
  );
}
