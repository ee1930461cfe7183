/**
 * The calls of the profiles screens beyond the schemas' own: an allowed list's networks, blocking them, syncing
 * them with the core network, the downloads, and approving a roaming profile. Writes invalidate the row's entity
 * tag, so the detail form and the lists read the new state.
 */
import type { Page } from '@shared/wire';
import { api } from '@web/core/api';
import { saveAttachment } from '@web/core/endpoints';
import type { EntityRow } from '@web/core/types';

/** Mirrors the server's NETWORK_STATES. */
export const NETWORK_STATES = ['pending', 'blocked', 'preferred', 'removed', 'pendingRemoval', 'pendingChanges'] as const;
export type NetworkState = (typeof NETWORK_STATES)[number];
export type StateCounts = Record<NetworkState, number>;

export interface NetworkSummary {
  allowedListId: number;
  counts: StateCounts;
  countries: { country: string; states: StateCounts }[];
}

export interface ListNetwork {
  networkId: number;
  plmn: string;
  mcc: string;
  mnc: string;
  country: string;
  operator: string | null;
  brand: string | null;
  state: NetworkState;
  inFlight: boolean;
  lastError?: string;
}

export interface BlockRequest {
  allowedListId: number;
  blocked: boolean;
  plmns?: string[];
  countries?: string[];
}

/** An allowed list's sync state, as its row carries it. */
export interface SyncState {
  allowedListId: number;
  uuid: string;
  syncTotal: number | null;
  syncDone: number | null;
  syncFailed: number | null;
  syncStartedAt: string | null;
  syncFinishedAt: string | null;
}

/** A subscriber a change would cut off: seen on one of its networks in the last 30 days. */
export interface ImpactSubscriber {
  subscriberId: number;
  name: string | null;
  imsi: string;
  iccid: string;
  accountId: number | null;
  country: string | null;
  network: string | null;
  lastSeenAt: string | null;
}

/** What a change that blocks or drops networks would do: counts per country and the first subscribers. */
export interface Impact {
  total: number;
  countries: { country: string; count: number }[];
  subscribers: Page<ImpactSubscriber>;
}

/** Subscribers an impact preview lists at once. */
export const IMPACT_PAGE = { page: 0, size: 100 };

const tagged = api.enhanceEndpoints({ addTagTypes: ['ListNetworks', 'ListSync'] });

export const profilesApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    /**
     * The list's row read for its sync progress. A cache entry apart from the form's, so polling it while a sync
     * runs does not reset a form being edited.
     */
    allowedListSync: build.query<SyncState, number>({
      query: (id) => `/allowed-lists/${id}`,
      providesTags: (_r, _e, id) => [{ type: 'ListSync', id }],
    }),
    listNetworkSummary: build.query<NetworkSummary, number>({
      query: (id) => `/allowed-lists/${id}/networks`,
      providesTags: (_r, _e, id) => [{ type: 'ListNetworks', id }],
    }),
    listCountryNetworks: build.query<ListNetwork[], { id: number; country: string }>({
      query: ({ id, country }) => `/allowed-lists/${id}/networks/${country}`,
      providesTags: (_r, _e, { id }) => [{ type: 'ListNetworks', id }],
    }),
    blockNetworks: build.mutation<NetworkSummary & { changed: number }, BlockRequest>({
      query: (body) => ({ url: '/admin/block-networks', method: 'POST', body }),
      invalidatesTags: (_r, _e, { allowedListId }) => [{ type: 'ListNetworks', id: allowedListId }],
    }),
    syncAllowedList: build.mutation<{ allowedListId: number; sent: number }, number>({
      query: (id) => ({ url: `/allowed-lists/${id}/sync`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'ListSync', id }, { type: 'ListNetworks', id }],
    }),
    /** The server names the list by its uuid here. */
    downloadAllowedList: build.mutation<string, string>({
      query: (uuid) => ({ url: `/allowed-lists/${uuid}/download`, method: 'POST', responseHandler: saveAttachment }),
    }),
    downloadPriceTable: build.mutation<string, number>({
      query: (id) => ({ url: `/roaming-profiles/${id}/download`, method: 'POST', responseHandler: saveAttachment }),
    }),
    downloadWholeProfile: build.mutation<string, number>({
      query: (id) => ({ url: `/v2/roaming-profiles/${id}/download`, method: 'POST', responseHandler: saveAttachment }),
    }),
    /** Previews ask nothing to change, but each answer is read afresh: POST calls, as mutations. */
    allowedListImpact: build.mutation<Impact, { id: number; plmns?: string[]; countries?: string[] }>({
      query: ({ id, ...body }) => ({ url: `/allowed-lists/${id}/impact`, method: 'POST', body: { ...body, page: IMPACT_PAGE } }),
    }),
    roamingProfileImpact: build.mutation<Impact, { id: number; countries?: string[]; allowedListIds?: number[] }>({
      query: ({ id, ...body }) => ({ url: `/roaming-profiles/${id}/impact`, method: 'POST', body: { ...body, page: IMPACT_PAGE } }),
    }),
    approveRoamingProfile: build.mutation<EntityRow, number>({
      query: (id) => ({ url: `/admin/roaming-profiles/${id}/approve`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'roamingProfile', id: String(id) }, { type: 'roamingProfile', id: 'LIST' }],
    }),
  }),
});

export const {
  useAllowedListSyncQuery,
  useListNetworkSummaryQuery,
  useListCountryNetworksQuery,
  useBlockNetworksMutation,
  useSyncAllowedListMutation,
  useDownloadAllowedListMutation,
  useDownloadPriceTableMutation,
  useDownloadWholeProfileMutation,
  useApproveRoamingProfileMutation,
  useAllowedListImpactMutation,
  useRoamingProfileImpactMutation,
} = profilesApi;
