/**
 * The subscriber detail page's calls beyond the schema's own: the panels' reads, the operations (network ones
 * answer with a pending record the page polls until the network has answered), the daily limit, MSISDNs,
 * the SIM info and the equipment lookup (SIM cards themselves are the sims feature's). Each panel's data
 * carries a `SubscriberInfo` tag per subscriber, so an operation's outcome refreshes every panel it may have changed.
 */
import { api } from '@web/core/api';
import { saveAttachment } from '@web/core/endpoints';
import type { Page } from '@shared/wire';

export type OperationStatus = 'pending' | 'success' | 'failed';

export interface SubscriberOperation {
  id: number;
  subscriberId: number;
  operation: string;
  status: OperationStatus;
  request: Record<string, unknown>;
  username: string;
  createdAt: string;
  finishedAt: string | null;
  error?: { code: string; messageId: string | null; message: string; detail?: string | null };
}

export type OperationName =
  | 'suspend' | 'reactivate' | 'refresh-sim' | 'modify-msisdn' | 'pricing-plan' | 'credit' | 'charge-on-wallet' | 'charge-on-account';

export interface OperationRequest {
  operation: OperationName;
  subscriberId: number;
  amount?: number;
  description?: string;
  pricingPlanId?: number;
  msisdn?: string;
}

export interface DailyLimit {
  subscriberId: number;
  dailyLimitBytes: number | null;
  qosThrottling: string | null;
  usageTodayBytes: number;
  reached: boolean;
  effect: 'blocked' | 'throttled' | null;
}

export interface QosSpeed { id: string; name: string; kbps: number }
export const QOS_BLOCK = 'BLOCK';

export interface SimInfo {
  iccid: string;
  simType: string | null;
  status: string | null;
  statusDate: string | null;
  profileType: string | null;
  batch: string | null;
  cost: number | null;
  serviceProviderName: string | null;
  activationCode: string | null;
}

export interface MsisdnRow { msisdn: string; isDefault: boolean }
export interface SponsorImsi { imsi: string; sponsorId: number | null; sponsorName: string | null; pending: boolean }
export interface AuditEntry { id: number; at: string; username: string; action: string; before: Record<string, unknown>; after: Record<string, unknown> }
export interface UsageRecord { id: number; at: string; imsi: string; requestType: string; plmn: string | null; apn: string | null; bytesUp: number; bytesDown: number; resultCode: number }
export interface NetworkEvent { id: number; createdAt: string; protocol: string; operation: string; imsi: string | null; plmn: string | null; result: string; detail: string | null }
export interface Charge { id: number; kind: string; amount: number; description: string | null; username: string; createdAt: string }
export interface RoamingProfileInfo {
  subscriberId: number;
  roamingProfileId: number | null;
  roamingProfile: { id: number; name: string; reference: string; slots: number; reviewState: string } | null;
  multiImsi: boolean;
  lastHssUpdate: SubscriberOperation | null;
}
export interface Equipment { imei: string; tac: string; make: string; model: string; deviceType: string | null }

const INFO = 'SubscriberInfo';
const tagged = api.enhanceEndpoints({ addTagTypes: [INFO] });
const info = (id: number) => [{ type: INFO, id }];

export const subscriberApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    runSubscriberOperation: build.mutation<SubscriberOperation, OperationRequest>({
      query: (body) => ({ url: '/subscriber-info/api/', method: 'POST', body }),
      // Billing operations finish at once; network ones refresh the page when their outcome arrives.
      invalidatesTags: (result, _e, { subscriberId }) =>
        result?.status === 'success' ? [...info(subscriberId), { type: 'subscriber', id: String(subscriberId) }] : [],
    }),
    cancelLocation: build.mutation<SubscriberOperation, number>({
      query: (id) => ({ url: `/subscriber-info/${id}/cancel-location`, method: 'POST' }),
    }),
    resetAllowedNetworks: build.mutation<SubscriberOperation, number>({
      query: (id) => ({ url: `/subscribers/${id}/allowed-networks`, method: 'POST' }),
    }),
    pushPendingImsis: build.mutation<SubscriberOperation, number>({
      query: (id) => ({ url: `/subscribers/${id}/push-pending-imsis`, method: 'POST' }),
    }),
    setImsiPending: build.mutation<SponsorImsi, { id: number; imsi: string }>({
      query: ({ id, imsi }) => ({ url: `/subscribers/${id}/${imsi}/pending`, method: 'PUT' }),
      invalidatesTags: (_r, _e, { id }) => info(id),
    }),
    writeHssProfile: build.mutation<SubscriberOperation, { id: number; roamingProfileId?: number }>({
      query: ({ id, roamingProfileId }) => ({ url: `/subscribers/${id}/roaming-profile/hss`, method: 'PUT', body: roamingProfileId ? { roamingProfileId } : {} }),
    }),
    subscriberOperation: build.query<SubscriberOperation, number>({
      query: (id) => `/subscriber-info/operations/${id}`,
    }),
    /** The subscriber's latest operations, newest first: one still pending is followed after a reload too. */
    recentOperations: build.query<SubscriberOperation[], number>({
      query: (id) => `/subscriber-info/${id}/operations`,
    }),
    /** The local plans this caller may put the subscriber on: exactly what the pricing-plan operation accepts. */
    usablePricingPlans: build.query<{ pricingPlanId: number; pricingPlanName: string }[], number>({
      query: (id) => `/subscriber-info/${id}/pricing-plans`,
      providesTags: (_r, _e, id) => info(id),
    }),
    dailyLimit: build.query<DailyLimit, number>({
      query: (id) => `/subscriber-info/daily-limit/${id}`,
      providesTags: (_r, _e, id) => info(id),
    }),
    setDailyLimit: build.mutation<DailyLimit, { subscriberId: number; dailyLimitBytes: number; qosThrottling: string }>({
      query: (body) => ({ url: '/subscriber-info/daily-limit', method: 'POST', body }),
      invalidatesTags: (_r, _e, { subscriberId }) => [...info(subscriberId), { type: 'subscriber', id: String(subscriberId) }],
    }),
    qosSpeedLimits: build.query<QosSpeed[], void>({
      query: () => '/reseller-info/api/qos-speed-limits',
    }),
    simInfo: build.query<SimInfo, number>({
      query: (id) => `/subscriber-info/sim-info/${id}`,
      providesTags: (_r, _e, id) => info(id),
    }),
    msisdns: build.query<MsisdnRow[], number>({
      query: (id) => `/msisdn/${id}`,
      providesTags: (_r, _e, id) => info(id),
    }),
    /** Goes through the core network: the pending operation is followed, and its outcome refreshes the panels. */
    modifyDefaultMsisdn: build.mutation<SubscriberOperation, { id: number; msisdn: string }>({
      query: ({ id, msisdn }) => ({ url: `/msisdn/${id}/modify-default`, method: 'POST', body: { msisdn } }),
    }),
    sponsorImsis: build.query<SponsorImsi[], number>({
      query: (id) => `/subscriber-info/sponsor-imsis/${id}`,
      providesTags: (_r, _e, id) => info(id),
    }),
    auditLogs: build.query<AuditEntry[], number>({
      query: (id) => `/subscriber-info/audit-logs/${id}`,
      providesTags: (_r, _e, id) => info(id),
    }),
    usageLogs: build.query<UsageRecord[], number>({
      query: (id) => `/subscriber-info/usage-logs/${id}`,
      providesTags: (_r, _e, id) => info(id),
    }),
    networkEvents: build.query<Page<NetworkEvent>, { subscriberId: number; imsi: string; page: number; size: number }>({
      query: ({ imsi, page, size }) => ({ url: `/subscriber-info/network-events/${imsi}`, method: 'POST', body: { page: { page, size } } }),
      providesTags: (_r, _e, { subscriberId }) => info(subscriberId),
    }),
    downloadNetworkEvents: build.mutation<string, string>({
      query: (imsi) => ({ url: `/subscriber-info/network-events/${imsi}/download`, method: 'POST', responseHandler: saveAttachment }),
    }),
    charges: build.query<Page<Charge>, { id: number; page: number; size: number }>({
      query: ({ id, page, size }) => ({ url: `/subscriber-info/charges/${id}`, method: 'POST', body: { page: { page, size } } }),
      providesTags: (_r, _e, { id }) => info(id),
    }),
    migrationStatus: build.query<{ subscriberId: number; migrationStatus: string | null }, number>({
      query: (id) => `/summa/subscriber-migration/${id}`,
      providesTags: (_r, _e, id) => info(id),
    }),
    subscriberRoamingProfile: build.query<RoamingProfileInfo, number>({
      query: (id) => `/subscribers/${id}/roaming-profile`,
      providesTags: (_r, _e, id) => info(id),
    }),
    equipment: build.mutation<Equipment, string>({
      query: (imei) => ({ url: '/misc/equipment', method: 'POST', body: { imei } }),
    }),
  }),
});

export const {
  useRunSubscriberOperationMutation,
  useCancelLocationMutation,
  useResetAllowedNetworksMutation,
  usePushPendingImsisMutation,
  useSetImsiPendingMutation,
  useWriteHssProfileMutation,
  useSubscriberOperationQuery,
  useRecentOperationsQuery,
  useDailyLimitQuery,
  useUsablePricingPlansQuery,
  useSetDailyLimitMutation,
  useQosSpeedLimitsQuery,
  useSimInfoQuery,
  useMsisdnsQuery,
  useModifyDefaultMsisdnMutation,
  useSponsorImsisQuery,
  useAuditLogsQuery,
  useUsageLogsQuery,
  useNetworkEventsQuery,
  useDownloadNetworkEventsMutation,
  useChargesQuery,
  useMigrationStatusQuery,
  useSubscriberRoamingProfileQuery,
  useEquipmentMutation,
} = subscriberApi;

/** Invalidates what an operation's outcome may have changed: the row and every panel of the subscriber. */
export const refreshSubscriber = (id: number) =>
  subscriberApi.util.invalidateTags([{ type: INFO, id }, { type: 'subscriber', id: String(id) }]);
