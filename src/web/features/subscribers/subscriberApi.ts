/**
 * The subscriber detail page's calls beyond the schema's own: the panels' reads, the operations (network ones
 * answer with a pending record the page polls until the network has answered), the daily limit, MSISDNs,
 * the SIM info and the equipment lookup (SIM cards themselves are the sims feature's). Each panel's data
 * carries a `SubscriberInfo` tag per subscriber, so an operation's outcome refreshes every panel it may have changed.
 */
import { answering } from '@web/core/generatedApi';
import { saveAttachment } from '@web/core/endpoints';
import type { Page } from '@shared/wire';
import { enhancedApi } from './subscriberApi.gen';
import { SUBSCRIBER_INFO as INFO } from '@web/core/subscriberCommonApi';

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

export type OperationName = 'suspend' | 'reactivate' | 'refresh-sim' | 'modify-msisdn' | 'pricing-plan' | 'credit' | 'charge-on-wallet' | 'charge-on-account';

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

export interface QosSpeed {
  id: string;
  name: string;
  kbps: number;
}
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

export interface MsisdnRow {
  msisdn: string;
  isDefault: boolean;
}
export interface SponsorImsi {
  imsi: string;
  sponsorId: number | null;
  sponsorName: string | null;
  pending: boolean;
}
export interface AuditEntry {
  id: number;
  at: string;
  username: string;
  action: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}
export interface UsageRecord {
  id: number;
  at: string;
  imsi: string;
  requestType: string;
  plmn: string | null;
  apn: string | null;
  bytesUp: number;
  bytesDown: number;
  resultCode: number;
}
export interface NetworkEvent {
  id: number;
  createdAt: string;
  protocol: string;
  operation: string;
  imsi: string | null;
  plmn: string | null;
  result: string;
  detail: string | null;
}
export interface Charge {
  id: number;
  kind: string;
  amount: number;
  description: string | null;
  username: string;
  createdAt: string;
}
export interface RoamingProfileInfo {
  subscriberId: number;
  roamingProfileId: number | null;
  roamingProfile: { id: number; name: string; reference: string; slots: number; reviewState: string } | null;
  multiImsi: boolean;
  lastHssUpdate: SubscriberOperation | null;
}
export interface Equipment {
  imei: string;
  tac: string;
  make: string;
  model: string;
  deviceType: string | null;
}

export type { MigrationStatus } from '@web/core/subscriberCommonApi';
export { useGetSummaSubscriberMigrationByIdQuery } from '@web/core/subscriberCommonApi';
/** The panels' tag of a subscriber; the document names ids in paths as text. */
const info = (id: number | string) => [{ type: INFO, id: Number(id) }];
const subscriberRow = (id: number | string) => ({ type: 'subscriber', id: String(id) });

export const subscriberApi = answering<{
  postSubscriberInfoByIdCancelLocation: SubscriberOperation;
  postSubscribersByIdAllowedNetworks: SubscriberOperation;
  postSubscribersByIdPushPendingImsis: SubscriberOperation;
  putSubscribersByIdByImsiPending: SponsorImsi;
  putSubscribersByIdRoamingProfileHss: SubscriberOperation;
  postMsisdnByIdModifyDefault: SubscriberOperation;
  postSubscriberInfoByIdSms: SubscriberOperation;
}>()(
  enhancedApi.enhanceEndpoints({
    endpoints: {
      // Billing operations finish at once; network ones refresh the page when their outcome arrives.
      postSubscriberInfoApi: {
        invalidatesTags: (result, _e, { subscriberId }) =>
          (result as SubscriberOperation | undefined)?.status === 'success' ? [...info(subscriberId), subscriberRow(subscriberId)] : [],
      },
      postSubscriberInfoByIdCancelLocation: { invalidatesTags: [] },
      postSubscribersByIdAllowedNetworks: { invalidatesTags: [] },
      postSubscribersByIdPushPendingImsis: { invalidatesTags: [] },
      putSubscribersByIdByImsiPending: { invalidatesTags: (_r, _e, { id }) => info(id) },
      putSubscribersByIdRoamingProfileHss: { invalidatesTags: [] },
      getSubscriberInfoOperationsById: { providesTags: [] },
      /** The subscriber's latest operations, newest first: one still pending is followed after a reload too. */
      getSubscriberInfoByIdOperations: { providesTags: [] },
      /** The local plans this caller may put the subscriber on: exactly what the pricing-plan operation accepts. */
      getSubscriberInfoByIdPricingPlans: { providesTags: (_r, _e, id) => info(id) },
      getSubscriberInfoDailyLimitById: { providesTags: (_r, _e, id) => info(id) },
      postSubscriberInfoDailyLimit: { invalidatesTags: (_r, _e, { subscriberId }) => [...info(subscriberId), subscriberRow(subscriberId)] },
      getResellerInfoApiQosSpeedLimits: { providesTags: [] },
      getSubscriberInfoSimInfoById: { providesTags: (_r, _e, id) => info(id) },
      getMsisdnById: { providesTags: (_r, _e, id) => info(id) },
      /** Goes through the core network: the pending operation is followed, and its outcome refreshes the panels. */
      postMsisdnByIdModifyDefault: { invalidatesTags: [] },
      getSubscriberInfoSponsorImsisById: { providesTags: (_r, _e, id) => info(id) },
      // Every save of the row (its fields, its custom values) adds an entry: the log follows the row.
      getSubscriberInfoAuditLogsById: { providesTags: (_r, _e, id) => [...info(id), subscriberRow(id)] },
      getSubscriberInfoUsageLogsById: { providesTags: (_r, _e, { id }) => info(id) },
      getSubscribersByIdRoamingProfile: { providesTags: (_r, _e, id) => info(id) },
      postMiscEquipment: { invalidatesTags: [] },
      postSubscriberInfoByIdSms: { invalidatesTags: [] },
    },
  }),
);

const pagedPanels = subscriberApi.injectEndpoints({
  endpoints: (build) => ({
    // Not generated: a read sent as POST (generated, it would be a mutation, not a cached query), whose body
    // (`{ page: { page, size } }`) the document does not describe.
    networkEvents: build.query<Page<NetworkEvent>, { subscriberId: number; imsi: string; page: number; size: number }>({
      query: ({ imsi, page, size }) => ({ url: `/subscriber-info/network-events/${imsi}`, method: 'POST', body: { page: { page, size } } }),
      providesTags: (_r, _e, { subscriberId }) => info(subscriberId),
    }),
    // Not generated: a streamed CSV saved as a file, which the document cannot describe.
    downloadNetworkEvents: build.mutation<string, string>({
      query: (imsi) => ({ url: `/subscriber-info/network-events/${imsi}/download`, method: 'POST', responseHandler: saveAttachment }),
    }),
    // Not generated: a read sent as POST (generated, it would be a mutation, not a cached query), whose body
    // (`{ page: { page, size } }`) the document does not describe.
    charges: build.query<Page<Charge>, { id: number; page: number; size: number }>({
      query: ({ id, page, size }) => ({ url: `/subscriber-info/charges/${id}`, method: 'POST', body: { page: { page, size } } }),
      providesTags: (_r, _e, { id }) => info(id),
    }),
  }),
});

export const {
  usePostSubscriberInfoApiMutation,
  usePostSubscriberInfoByIdCancelLocationMutation,
  usePostSubscribersByIdAllowedNetworksMutation,
  usePostSubscribersByIdPushPendingImsisMutation,
  usePutSubscribersByIdByImsiPendingMutation,
  usePutSubscribersByIdRoamingProfileHssMutation,
  useGetSubscriberInfoOperationsByIdQuery,
  useGetSubscriberInfoByIdOperationsQuery,
  useGetSubscriberInfoDailyLimitByIdQuery,
  useGetSubscriberInfoByIdPricingPlansQuery,
  usePostSubscriberInfoDailyLimitMutation,
  useGetResellerInfoApiQosSpeedLimitsQuery,
  useGetSubscriberInfoSimInfoByIdQuery,
  useGetMsisdnByIdQuery,
  usePostMsisdnByIdModifyDefaultMutation,
  useGetSubscriberInfoSponsorImsisByIdQuery,
  useGetSubscriberInfoAuditLogsByIdQuery,
  useGetSubscriberInfoUsageLogsByIdQuery,
  useGetSubscribersByIdRoamingProfileQuery,
  usePostMiscEquipmentMutation,
  usePostSubscriberInfoByIdSmsMutation,
} = subscriberApi;
export const { useNetworkEventsQuery, useDownloadNetworkEventsMutation, useChargesQuery } = pagedPanels;

/** Invalidates what an operation's outcome may have changed: the row and every panel of the subscriber. */
export const refreshSubscriber = (id: number) => subscriberApi.util.invalidateTags([...info(id), subscriberRow(id)]);
